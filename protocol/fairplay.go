package protocol

import "golfsolitaire/fairplay"

// FairplayFlags is the body of GET /api/fairplay/flags (moderators only):
// every flagged player with the evidence (docs/fairplay.md).
type FairplayFlags struct {
	Flags []fairplay.Flag `json:"flags"`
}
