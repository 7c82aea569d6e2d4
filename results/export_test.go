package results

// NewAnalyser gives the package's external tests the analyser the
// pipeline builds.
var NewAnalyser = newAnalyser
