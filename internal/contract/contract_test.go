package contract

import (
	"encoding/json"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"golfsolitaire/protocol"
)

// TestFrameTypesInSpec: every frame type package protocol names (its
// Type constants) is a message of docs/asyncapi.yaml, in the direction
// and on the socket it is used: client types on the room socket's
// receive side, server types on its send side, the tournament frame on
// the tournament socket's. A type added to the code and not to the
// contract fails here.
func TestFrameTypesInSpec(t *testing.T) {
	t.Parallel()
	c, err := Load()
	if err != nil {
		t.Fatal(err)
	}
	consts := typeConstants(t, filepath.Join(Root(), "protocol"))
	if len(consts) < 15 {
		t.Fatalf("found only %d frame types in protocol/: %v", len(consts), consts)
	}
	client := c.FrameTypes(RoomSocket, Receive)
	server := c.FrameTypes(RoomSocket, Send)
	tour := c.FrameTypes(TournamentSocket, Send)
	for name, typ := range consts {
		switch {
		case name == "TypeTournament":
			if !slices.Contains(tour, typ) {
				t.Errorf("%s (%q) is not a frame the tournament socket sends in docs/asyncapi.yaml", name, typ)
			}
		case !slices.Contains(client, typ) && !slices.Contains(server, typ):
			t.Errorf("%s (%q) is not a frame of the room socket in docs/asyncapi.yaml", name, typ)
		}
	}
	// Each side as package protocol documents it.
	for _, typ := range []string{protocol.TypeHello, protocol.TypeMove, protocol.TypeReady, protocol.TypeStart, protocol.TypeStand,
		protocol.TypeRematch, protocol.TypePing, protocol.TypeHint, protocol.TypeLeave, protocol.TypeKick, protocol.TypeReact, protocol.TypeResync} {
		if !slices.Contains(client, typ) {
			t.Errorf("client frame %q missing from the room socket's receive operation", typ)
		}
	}
	for _, typ := range []string{protocol.TypeWelcome, protocol.TypeSnapshot, protocol.TypeEvent, protocol.TypeAck, protocol.TypeError,
		protocol.TypePong, protocol.TypeReaction} {
		if !slices.Contains(server, typ) {
			t.Errorf("server frame %q missing from the room socket's send operation", typ)
		}
	}
}

// typeConstants returns the string constants named Type* in the package
// in dir.
func typeConstants(t *testing.T, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	for _, f := range parseGoFiles(t, dir) {
		for _, d := range f.Decls {
			g, ok := d.(*ast.GenDecl)
			if !ok || g.Tok != token.CONST {
				continue
			}
			for _, s := range g.Specs {
				vs := s.(*ast.ValueSpec)
				for i, n := range vs.Names {
					if !strings.HasPrefix(n.Name, "Type") || i >= len(vs.Values) {
						continue
					}
					if lit, ok := vs.Values[i].(*ast.BasicLit); ok && lit.Kind == token.STRING {
						out[n.Name], _ = strconv.Unquote(lit.Value)
					}
				}
			}
		}
	}
	return out
}

// TestRoutesInSpec: every route the server registers (the patterns of
// HandleFunc and Handle calls in server/, web/ and their sub-packages) is an operation of
// docs/openapi.yaml, and every operation there is a registered route. The
// catch-alls registered without a method ("/api/" answering not_found,
// "/" the site's not-found page) are described in its info instead.
func TestRoutesInSpec(t *testing.T) {
	t.Parallel()
	c, err := Load()
	if err != nil {
		t.Fatal(err)
	}
	var routes []string
	for _, top := range []string{"server", "web"} {
		// The feature sub-packages (server/challenges, ...) mount routes
		// of their own.
		err := filepath.WalkDir(filepath.Join(Root(), top), func(path string, d fs.DirEntry, err error) error {
			if err != nil || !d.IsDir() || d.Name() == "testdata" {
				return err
			}
			routes = append(routes, registeredRoutes(t, path)...)
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	if len(routes) < 40 {
		t.Fatalf("found only %d routes: %v", len(routes), routes)
	}
	ops := c.Operations()
	for _, r := range routes {
		if !slices.Contains(ops, r) {
			t.Errorf("route %s is registered but not in docs/openapi.yaml", r)
		}
	}
	for _, o := range ops {
		if !slices.Contains(routes, o) {
			t.Errorf("docs/openapi.yaml has %s, which the server does not register", o)
		}
	}
}

// registeredRoutes returns the method patterns registered in the package
// in dir, as OpenAPI operations ("GET /api/rooms/{code}").
func registeredRoutes(t *testing.T, dir string) []string {
	t.Helper()
	var out []string
	for _, f := range parseGoFiles(t, dir) {
		ast.Inspect(f, func(n ast.Node) bool {
			call, ok := n.(*ast.CallExpr)
			if !ok || len(call.Args) != 2 {
				return true
			}
			sel, ok := call.Fun.(*ast.SelectorExpr)
			if !ok || (sel.Sel.Name != "HandleFunc" && sel.Sel.Name != "Handle") {
				return true
			}
			lit, ok := call.Args[0].(*ast.BasicLit)
			if !ok || lit.Kind != token.STRING {
				return true
			}
			pat, _ := strconv.Unquote(lit.Value)
			method, path, ok := strings.Cut(pat, " ")
			if !ok {
				return true // a catch-all without a method
			}
			if path == "/{$}" {
				path = "/"
			}
			out = append(out, method+" "+path)
			return true
		})
	}
	return out
}

// TestFramesValidate: the schemas take the frames the server writes and
// the commands clients send, and refuse what the protocol does not have.
func TestFramesValidate(t *testing.T) {
	t.Parallel()
	c, err := Load()
	if err != nil {
		t.Fatal(err)
	}
	seat := 0
	good := []struct {
		socket, action string
		frame          []byte
	}{
		{RoomSocket, Send, protocol.ServerMessage{Type: protocol.TypeWelcome, Protocol: protocol.Version, Features: protocol.Features, Seat: &seat, V: 3}.Marshal()},
		{RoomSocket, Send, protocol.ServerMessage{Type: protocol.TypeError, Code: protocol.ErrCodeBadVersion, Message: "this server speaks protocol version 2", Versions: protocol.Versions}.Marshal()},
		{RoomSocket, Send, protocol.PatchFrame(5, 5, []byte(`{"kind":"move","seat":1,"hole":1}`), []byte(`{}`))},
		{RoomSocket, Send, protocol.PatchFrame(5, 4, []byte(`{"kind":"move","seat":1,"hole":1}`), []byte(`{"v":5}`))},
		{RoomSocket, Send, protocol.ServerMessage{Type: protocol.TypeAck, Seq: 7, V: 9}.Marshal()},
		{RoomSocket, Send, []byte(`{"type":"reaction","seat":1,"reaction":"gg"}`)},
		{RoomSocket, Receive, []byte(`{"type":"hello","protocol":2,"room":"K7R-4MP-9TW","token":"x","since":4}`)},
		{RoomSocket, Receive, []byte(`{"type":"hello","protocol":3,"room":"K7R-4MP-9TW","future":true}`)},
		{RoomSocket, Receive, []byte(`{"type":"move","seq":1001,"hole":1,"move":"3"}`)},
		{RoomSocket, Receive, []byte(`{"type":"kick","seq":4,"seat":1}`)},
		{RoomSocket, Receive, []byte(`{"type":"resync"}`)},
		{TournamentSocket, Receive, []byte(`{"type":"hello","token":"t"}`)},
		{TournamentSocket, Send, []byte(`{"type":"error","v":0,"code":"hello_first","message":"the first message must be hello"}`)},
	}
	for _, g := range good {
		if err := c.ValidateFrame(g.socket, g.action, g.frame); err != nil {
			t.Errorf("%s %s %s: %v", g.socket, g.action, g.frame, err)
		}
	}
	bad := []struct {
		socket, action string
		frame          string
	}{
		{RoomSocket, Send, `{"type":"welcome","seat":0}`},                                                  // no protocol
		{RoomSocket, Send, `{"type":"event","v":5,"event":{"kind":"move","seat":0},"view":{},"patch":{}}`}, // both
		{RoomSocket, Send, `{"type":"event","v":5,"base":3,"event":{"kind":"move","seat":0}}`},             // base, no patch
		{RoomSocket, Send, `{"type":"ack","seq":1,"surprise":1}`},
		{RoomSocket, Send, `{"type":"dance"}`},
		{RoomSocket, Receive, `{"type":"move","seq":1,"hole":1,"move":"x"}`},
		{RoomSocket, Receive, `{"type":"move","seq":1,"hole":1,"move":"s","seat":2}`},
		{RoomSocket, Receive, `{"type":"welcome"}`},
	}
	for _, b := range bad {
		if err := c.ValidateFrame(b.socket, b.action, []byte(b.frame)); err == nil {
			t.Errorf("%s %s %s validates", b.socket, b.action, b.frame)
		}
	}
}

// TestTapCatchesDrift: a server answering what the contract does not say
// is caught.
func TestTapCatchesDrift(t *testing.T) {
	t.Parallel()
	c, err := Load()
	if err != nil {
		t.Fatal(err)
	}
	req := httptest.NewRequest("POST", "/api/rooms", nil)
	h := http.Header{"Content-Type": {"application/json"}}
	good, _ := json.Marshal(protocol.SeatGrant{Code: "K7R4MP9TW", Link: "/r/K7R4MP9TW", Seat: 0, Token: "t"})
	if err := c.ValidateResponse(req, 201, h, good); err != nil {
		t.Errorf("a seat grant: %v", err)
	}
	if err := c.ValidateResponse(req, 201, h, []byte(`{"code":"K7R4MP9TW"}`)); err == nil {
		t.Error("a seat grant without link and seat validates")
	}
	if err := c.ValidateResponse(req, 400, h, []byte(`{"error":"bad"}`)); err == nil {
		t.Error("an error without code and message validates")
	}
	if err := c.ValidateResponse(httptest.NewRequest("GET", "/api/nowhere", nil), 200, h, []byte(`{}`)); err != ErrNoRoute {
		t.Errorf("an undocumented route: %v, want ErrNoRoute", err)
	}
	if err := c.ValidateResponse(req, 201, http.Header{"Content-Type": {"text/plain"}}, good); err == nil {
		t.Error("a seat grant as text/plain validates")
	}
	if err := c.ValidateResponse(req, 201, h, []byte(`{"code":`)); err == nil {
		t.Error("a seat grant cut short validates")
	}
	// The one answer whose schema is in its operation, not a component.
	keys := httptest.NewRequest("GET", "/api/account/passkeys", nil)
	if err := c.ValidateResponse(keys, 200, h, []byte(`[{"id":"k1","created":"2026-12-06T10:00:00Z"}]`)); err != nil {
		t.Errorf("a list of passkeys: %v", err)
	}
	if err := c.ValidateResponse(keys, 200, h, []byte(`[{"id":"k1"}]`)); err == nil {
		t.Error("a passkey without its creation time validates")
	}
	// Formats are asserted (as kin-openapi asserts them).
	flags := httptest.NewRequest("GET", "/api/fairplay/flags", nil)
	for at, want := range map[string]bool{"2026-12-06T10:00:00Z": true, "yesterday": false} {
		body := `{"flags":[],"nameNotes":{},"scouting":{},"links":{"p1":[{"name":"Bo","kind":"device","at":"` + at + `"}]}}`
		if err := c.ValidateResponse(flags, 200, h, []byte(body)); (err == nil) != want {
			t.Errorf("flags with a link at %q: %v, want valid %v", at, err, want)
		}
	}
}

// parseGoFiles parses the package's Go files in dir, tests left out.
func parseGoFiles(t *testing.T, dir string) []*ast.File {
	t.Helper()
	names, err := filepath.Glob(filepath.Join(dir, "*.go"))
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	var files []*ast.File
	for _, n := range names {
		if strings.HasSuffix(n, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, n, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, f)
	}
	return files
}

// BenchmarkValidateResponse: one seat grant validated against its
// operation's answer.
func BenchmarkValidateResponse(b *testing.B) {
	c, err := Load()
	if err != nil {
		b.Fatal(err)
	}
	req := httptest.NewRequest("POST", "/api/rooms", nil)
	h := http.Header{"Content-Type": {"application/json"}}
	good, _ := json.Marshal(protocol.SeatGrant{Code: "K7R4MP9TW", Link: "/r/K7R4MP9TW", Seat: 0, Token: "t"})
	for b.Loop() {
		if err := c.ValidateResponse(req, 201, h, good); err != nil {
			b.Fatal(err)
		}
	}
}
