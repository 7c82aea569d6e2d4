package main

import (
	"flag"
	"fmt"

	"golfsolitaire/golf"
)

func runVerify(args []string, e env) error {
	fs := flag.NewFlagSet("verify", flag.ContinueOnError)
	fs.SetOutput(e.stderr)
	commitment := fs.String("commitment", "", "the commitment shown before play: hex SHA-256 of the seed")
	seedHex := fs.String("seed", "", "the revealed round seed, 64 hex digits")
	if err := fs.Parse(args); err != nil {
		return &exitError{code: 2}
	}
	if *commitment == "" || *seedHex == "" || fs.NArg() > 0 {
		return usageError("verify: usage: verify --commitment HEX --seed HEX")
	}
	seed, err := golf.ParseSeed(*seedHex)
	if err != nil {
		return usageError("verify: %v", err)
	}
	if !seed.Verify(*commitment) {
		fmt.Fprintf(e.stdout, "MISMATCH: SHA-256 of the seed is %s, not the commitment %s\n", seed.Commitment(), *commitment)
		return &exitError{code: 1}
	}
	fmt.Fprintf(e.stdout, "OK: the seed matches the commitment %s\n", seed.Commitment())
	return nil
}
