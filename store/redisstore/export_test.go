package redisstore

// QueuedAppends is how many Appends wait for a pipeline (batch.go).
func QueuedAppends(s *Store) int {
	s.appends.mu.Lock()
	defer s.appends.mu.Unlock()
	return len(s.appends.queue)
}
