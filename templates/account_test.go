package templates

import "testing"

func TestChartPoints(t *testing.T) {
	for _, tc := range []struct {
		h    []float64
		want string
	}{
		{nil, ""},
		// One game: a dot in the middle.
		{[]float64{1500}, "160.0,60.0"},
		// Left to right, highest at the top: 1500 → 1600 spans the
		// drawing area less the 50-point margins.
		{[]float64{1500, 1600}, "10.0,85.0 310.0,35.0"},
		{[]float64{1600, 1500, 1550}, "10.0,35.0 160.0,85.0 310.0,60.0"},
	} {
		if got := chartPoints(tc.h); got != tc.want {
			t.Errorf("chartPoints(%v) = %q, want %q", tc.h, got, tc.want)
		}
	}
}
