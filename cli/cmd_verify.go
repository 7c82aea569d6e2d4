package cli

import (
	"flag"
	"fmt"
	"strings"

	"golfsolitaire/golf"
)

func runVerify(args []string, e env) error {
	fs := flag.NewFlagSet("verify", flag.ContinueOnError)
	fs.SetOutput(e.stderr)
	commitment := fs.String("commitment", "", "the commitment shown before play: hex SHA-256 of the seed")
	seedHex := fs.String("seed", "", "the revealed round seed, 64 hex digits")
	dealsHex := fs.String("deals", "", "a pooled round's revealed deals (the view's deals), comma-separated: also check that the round seed is SHA-256(\"pool:\" ‖ the deals)")
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
	if *dealsHex != "" {
		var deals []golf.Seed
		for _, d := range strings.Split(*dealsHex, ",") {
			s, err := golf.ParseSeed(strings.TrimSpace(d))
			if err != nil {
				return usageError("verify: --deals: %v", err)
			}
			deals = append(deals, s)
		}
		if p := golf.PooledRoundSeed(deals); p != seed {
			fmt.Fprintf(e.stdout, "MISMATCH: the pooled round seed of the %d deals is %s, not the seed %s\n", len(deals), p, seed)
			return &exitError{code: 1}
		}
		fmt.Fprintf(e.stdout, "OK: the seed matches the commitment %s and is the pooled round seed of its %d deals\n", seed.Commitment(), len(deals))
		return nil
	}
	fmt.Fprintf(e.stdout, "OK: the seed matches the commitment %s\n", seed.Commitment())
	return nil
}
