package jobs

import (
	"cmp"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
)

// DefaultMaxBatch is how many jobs of a group the relay puts in one
// batch job at most (RelayOptions.MaxBatch).
const DefaultMaxBatch = 16

// batchArgs are a batch job's args: its members, each a job of its own
// (its key and args).
type batchArgs struct {
	Batch []member `json:"batch"`
}

type member struct {
	Key  string          `json:"key"`
	Args json.RawMessage `json:"args,omitempty"`
}

// batchPrefix starts the key of a batch job (after its kind).
const batchPrefix = ":batch:"

// Batched reports whether j is a batch job (see Members).
func Batched(j Job) bool { return strings.HasPrefix(j.Key, j.Kind+batchPrefix) }

// Members are the jobs a batch job stands for, in key order (each with
// its own key and args, and the batch's kind, time and attempt); a job
// that is not a batch stands for itself. A handler of a kind the relay
// batches (Job.Group) works each member, and must tolerate a member
// worked twice: a relay that stopped between inserting a batch and
// removing its entries may batch some of them again with others (under
// another key) on its next pass.
func Members(j Job) ([]Job, error) {
	if !Batched(j) {
		return []Job{j}, nil
	}
	var b batchArgs
	if err := json.Unmarshal(j.Args, &b); err != nil {
		return nil, fmt.Errorf("%w: batch %s: %v", ErrInvalid, j.Key, err)
	}
	out := make([]Job, 0, len(b.Batch))
	for _, m := range b.Batch {
		out = append(out, Job{Kind: j.Kind, Key: m.Key, Args: m.Args, At: j.At, Attempt: j.Attempt, Inserted: j.Inserted})
	}
	return out, nil
}

// Batch puts the jobs that have a Group into batch jobs: those of one
// kind, sorted by group and key, at most max to a batch (so the members
// of a group, such as the seats of one deal, are together). A batch's
// key is its kind, ":batch:" and a hash of its members' keys, so the
// same entries batched alike are one job; its time is the earliest of
// its members'. A job alone in its batch, and every job without a group,
// is left as it is.
func Batch(js []Job, max int) []Job {
	var out, grouped []Job
	for _, j := range js {
		if j.Group == "" || len(j.Subjects) > 0 {
			out = append(out, j)
		} else {
			grouped = append(grouped, j)
		}
	}
	slices.SortStableFunc(grouped, func(a, b Job) int {
		return cmp.Or(cmp.Compare(a.Kind, b.Kind), cmp.Compare(a.Group, b.Group), cmp.Compare(a.Key, b.Key))
	})
	for len(grouped) > 0 {
		n := 1
		for n < len(grouped) && n < max && grouped[n].Kind == grouped[0].Kind {
			n++
		}
		out = append(out, merge(grouped[:n]))
		grouped = grouped[n:]
	}
	return out
}

// merge is the batch job of js (one kind); a single job is itself.
func merge(js []Job) Job {
	if len(js) == 1 {
		return js[0]
	}
	b := batchArgs{Batch: make([]member, 0, len(js))}
	h := sha256.New()
	at := js[0].At
	for _, j := range js {
		b.Batch = append(b.Batch, member{Key: j.Key, Args: j.Args})
		h.Write([]byte(j.Key))
		h.Write([]byte{0})
		if j.At.Before(at) {
			at = j.At
		}
	}
	args, _ := json.Marshal(b) // members' args are valid JSON (Job.valid)
	return Job{Kind: js[0].Kind, Key: js[0].Kind + batchPrefix + hex.EncodeToString(h.Sum(nil)[:16]), Args: args, At: at}
}
