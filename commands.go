package main

// extraCommands are the subcommands beyond serve, deal, replay and verify.
var extraCommands = []command{
	{name: "load", run: runLoad},
	{name: "healthcheck", run: runHealthcheck},
	{name: "solve", run: runSolve},
}
