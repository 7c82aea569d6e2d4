package fairplay

import (
	"sync"

	"golfsolitaire/golf"
)

// Solvers keeps sets of solvers, with their tables, from one analysis to
// the next (Config.Solvers). Every solver handed out starts as a fresh
// one would (golf.Solver.Forget): an analysis treats every order alike,
// and a table left from another deal must not make one order's solves
// differ from another's. Safe for concurrent use; the zero value and nil
// keep nothing.
type Solvers struct {
	mu   sync.Mutex
	sets [][]golf.Solver
}

// Kept solvers: at most maxKeptSets sets, and only solvers whose tables
// hold at most maxKeptBytes (a table grows to 64 MiB on a hard
// position; most of an analysis's stay at 128 KiB).
const (
	maxKeptSets  = 4
	maxKeptBytes = 1 << 20
)

// NewSolvers returns an empty keeper of solvers.
func NewSolvers() *Solvers { return &Solvers{} }

// get returns n solvers, kept ones first.
func (p *Solvers) get(n int) []golf.Solver {
	var set []golf.Solver
	if p != nil {
		p.mu.Lock()
		if k := len(p.sets); k > 0 {
			set, p.sets[k-1] = p.sets[k-1], nil
			p.sets = p.sets[:k-1]
		}
		p.mu.Unlock()
	}
	for i := range set {
		set[i].Forget()
	}
	if len(set) >= n {
		return set[:n]
	}
	return append(set, make([]golf.Solver, n-len(set))...)
}

// put keeps a set for the next analysis, its solvers with large tables
// dropped.
func (p *Solvers) put(set []golf.Solver) {
	if p == nil {
		return
	}
	set = set[:cap(set)]
	for i := range set {
		if set[i].TableBytes() > maxKeptBytes {
			set[i] = golf.Solver{}
		}
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if len(p.sets) < maxKeptSets {
		p.sets = append(p.sets, set)
	}
}
