package templates

import "golfsolitaire/protocol"

// Reactions are the preset reactions a player may send (catalogue keys
// react.<id>).
var Reactions = protocol.Reactions
