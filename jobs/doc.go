// Package jobs is the durable job queue that the game servers and `golf
// worker` share: a round's result to record, finished holes to analyse
// for fair play. Queue is the small interface both sides use; River
// (PostgreSQL, github.com/riverqueue/river) is the durable
// implementation for several instances and worker machines, Memory the
// in-process one for a server run without a database. Both pass one
// contract suite (jobstest):
//
//   - a job is identified by its Key: inserting a job whose key is
//     pending, running or done is a no-op (so a replay of the same work
//     after a crash meets the first insert);
//   - a job is worked at least once: a worker that fails it (an error or
//     a panic), or stops while working it, leaves it to be retried later
//     with backoff, by any worker;
//   - a burst of any size is kept whole (no bounded buffer drops work).
//
// Workers therefore tolerate reruns: what a job writes is behind a
// unique key of its own (the archive refuses a second record of a game,
// a hole's evidence is stored once).
//
// Each kind of job is worked by its own bounded pool of goroutines
// (Workers), so a CPU-bound kind (fair-play analysis) never holds back
// another (results) and never runs on a room's goroutine.
package jobs
