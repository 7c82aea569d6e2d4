// Package contract holds the server to its machine-readable contract:
// docs/asyncapi.yaml (every WebSocket frame, both ways) and
// docs/openapi.yaml (every HTTP route). Tests wrap a server's handler in
// Tap, which validates every frame the server sends and every HTTP answer
// it gives against them; the package's own tests check that every frame
// type of package protocol and every route the server registers is in
// the files, so that the contract cannot drift from the code unnoticed.
//
// The files are read and their schemas compiled once per test binary.
package contract

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"sync"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/getkin/kin-openapi/openapi3filter"
	"github.com/getkin/kin-openapi/routers"
	"github.com/santhosh-tekuri/jsonschema/v6"
	"go.yaml.in/yaml/v4"
)

// Socket names the channels of docs/asyncapi.yaml.
const (
	RoomSocket       = "room"
	TournamentSocket = "tournament"
)

// Directions, as AsyncAPI says them from the server's side.
const (
	Send    = "send"    // the server sends
	Receive = "receive" // the client sends
)

// Contract is the two files, loaded and compiled.
type Contract struct {
	// frames[channel][action][frame type] is the payload schema.
	frames map[string]map[string]map[string]*jsonschema.Schema
	api    *openapi3.T
	routes *http.ServeMux
	bodies *bodies
}

var (
	loadOnce sync.Once
	loaded   *Contract
	loadErr  error
)

// Load returns the contract of the repository's docs/, loaded once.
func Load() (*Contract, error) {
	loadOnce.Do(func() { loaded, loadErr = load(Root()) })
	return loaded, loadErr
}

// Root is the repository's root directory.
func Root() string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(file), "..", "..")
}

func load(root string) (*Contract, error) {
	c := &Contract{}
	if err := c.loadFrames(filepath.Join(root, "docs", "asyncapi.yaml")); err != nil {
		return nil, fmt.Errorf("docs/asyncapi.yaml: %w", err)
	}
	if err := c.loadAPI(filepath.Join(root, "docs", "openapi.yaml")); err != nil {
		return nil, fmt.Errorf("docs/openapi.yaml: %w", err)
	}
	return c, nil
}

func (c *Contract) loadFrames(path string) error {
	raw, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	var doc map[string]any
	if err := yaml.Unmarshal(raw, &doc); err != nil {
		return err
	}
	if v, _ := doc["asyncapi"].(string); !strings.HasPrefix(v, "3.0") {
		return fmt.Errorf("asyncapi %q, want 3.0.x", v)
	}
	// The schemas as JSON values (jsonschema wants JSON numbers).
	js, err := json.Marshal(doc)
	if err != nil {
		return err
	}
	val, err := jsonschema.UnmarshalJSON(bytes.NewReader(js))
	if err != nil {
		return err
	}
	comp := jsonschema.NewCompiler()
	// AsyncAPI 3.0's default schema format is a superset of JSON Schema
	// draft 7.
	comp.DefaultDraft(jsonschema.Draft7)
	comp.AssertFormat()
	const url = "file:///asyncapi.json"
	if err := comp.AddResource(url, val); err != nil {
		return err
	}
	channels, _ := doc["channels"].(map[string]any)
	messages := mapAt(doc, "components", "messages")
	c.frames = map[string]map[string]map[string]*jsonschema.Schema{}
	ops, _ := doc["operations"].(map[string]any)
	for name, o := range ops {
		op, _ := o.(map[string]any)
		action, _ := op["action"].(string)
		ch := strings.TrimPrefix(ref(op["channel"]), "#/channels/")
		if _, ok := channels[ch]; !ok || (action != Send && action != Receive) {
			return fmt.Errorf("operation %s: channel %q, action %q", name, ch, action)
		}
		list, _ := op["messages"].([]any)
		for _, m := range list {
			// #/channels/CH/messages/KEY -> the channel's $ref to
			// #/components/messages/NAME.
			parts := strings.Split(ref(m), "/")
			if len(parts) != 5 || parts[2] != ch {
				return fmt.Errorf("operation %s: message %q is not of channel %s", name, ref(m), ch)
			}
			key := strings.TrimPrefix(ref(mapAt(channels, ch, "messages")[parts[4]]), "#/components/messages/")
			msg, ok := messages[key].(map[string]any)
			if !ok {
				return fmt.Errorf("operation %s: no message %q", name, key)
			}
			typ, _ := msg["name"].(string)
			s, err := comp.Compile(url + "#/components/messages/" + key + "/payload")
			if err != nil {
				return fmt.Errorf("message %s: %w", key, err)
			}
			if c.frames[ch] == nil {
				c.frames[ch] = map[string]map[string]*jsonschema.Schema{}
			}
			if c.frames[ch][action] == nil {
				c.frames[ch][action] = map[string]*jsonschema.Schema{}
			}
			c.frames[ch][action][typ] = s
		}
	}
	return nil
}

func ref(v any) string {
	m, _ := v.(map[string]any)
	s, _ := m["$ref"].(string)
	return s
}

func mapAt(m map[string]any, keys ...string) map[string]any {
	for _, k := range keys {
		m, _ = m[k].(map[string]any)
	}
	return m
}

// FrameTypes returns the frame types of a socket in a direction.
func (c *Contract) FrameTypes(socket, action string) []string {
	var out []string
	for t := range c.frames[socket][action] {
		out = append(out, t)
	}
	sort.Strings(out)
	return out
}

// ValidateFrame checks one frame of a socket against its message's schema.
func (c *Contract) ValidateFrame(socket, action string, frame []byte) error {
	var head struct {
		Type string `json:"type"`
	}
	if err := json.Unmarshal(frame, &head); err != nil {
		return fmt.Errorf("not a JSON object: %w", err)
	}
	s, ok := c.frames[socket][action][head.Type]
	if !ok {
		return fmt.Errorf("no %q frame in docs/asyncapi.yaml for the %s socket (%s)", head.Type, socket, action)
	}
	v, err := jsonschema.UnmarshalJSON(bytes.NewReader(frame))
	if err != nil {
		return err
	}
	if err := s.Validate(v); err != nil {
		return fmt.Errorf("%s frame %.300s: %#v", head.Type, frame, err)
	}
	return nil
}

func (c *Contract) loadAPI(path string) error {
	ld := openapi3.NewLoader()
	doc, err := ld.LoadFromFile(path)
	if err != nil {
		return err
	}
	if !doc.IsOpenAPI31OrLater() {
		return fmt.Errorf("openapi %q, want 3.1", doc.OpenAPI)
	}
	if err := doc.Validate(context.Background()); err != nil {
		return err
	}
	c.api = doc
	if c.bodies, err = newBodies(doc); err != nil {
		return err
	}
	c.routes = http.NewServeMux()
	for path, item := range doc.Paths.Map() {
		for method, op := range item.Operations() {
			route := &routers.Route{Spec: doc, Path: path, PathItem: item, Method: method, Operation: op}
			pattern := path
			if pattern == "/" {
				pattern = "/{$}"
			}
			c.routes.Handle(method+" "+pattern, routeHandler{route})
		}
	}
	return nil
}

// routeHandler records its route in the request's finder: the mux is
// only used to find which operation a request is.
type routeHandler struct{ r *routers.Route }

type finderKey struct{}

type finder struct {
	route *routers.Route
	req   *http.Request
}

func (h routeHandler) ServeHTTP(_ http.ResponseWriter, r *http.Request) {
	if f, ok := r.Context().Value(finderKey{}).(*finder); ok {
		f.route, f.req = h.r, r
	}
}

type discard struct{ h http.Header }

func (d *discard) Header() http.Header {
	if d.h == nil {
		d.h = http.Header{}
	}
	return d.h
}
func (*discard) Write(b []byte) (int, error) { return len(b), nil }
func (*discard) WriteHeader(int)             {}

// route finds the operation of a request and its path parameters.
func (c *Contract) route(req *http.Request) (*routers.Route, map[string]string) {
	f := &finder{}
	c.routes.ServeHTTP(&discard{}, req.Clone(context.WithValue(req.Context(), finderKey{}, f)))
	if f.route == nil {
		return nil, nil
	}
	params := map[string]string{}
	for _, ps := range []openapi3.Parameters{f.route.PathItem.Parameters, f.route.Operation.Parameters} {
		for _, p := range ps {
			if p.Value != nil && p.Value.In == "path" {
				params[p.Value.Name] = f.req.PathValue(p.Value.Name)
			}
		}
	}
	return f.route, params
}

// Operations returns every operation of docs/openapi.yaml as "METHOD
// /path/{param}".
func (c *Contract) Operations() []string {
	var out []string
	for path, item := range c.api.Paths.Map() {
		for method := range item.Operations() {
			out = append(out, method+" "+path)
		}
	}
	sort.Strings(out)
	return out
}

// ErrNoRoute is returned for a request that matches no operation.
var ErrNoRoute = errors.New("no operation of docs/openapi.yaml matches the request")

// ValidateResponse checks an HTTP answer against the operation the request
// matches: its status must be documented, with its content type and, for
// JSON, a body that validates against the schema.
func (c *Contract) ValidateResponse(req *http.Request, status int, header http.Header, body []byte) error {
	route, params := c.route(req)
	if route == nil {
		return ErrNoRoute
	}
	in := &openapi3filter.ResponseValidationInput{
		RequestValidationInput: &openapi3filter.RequestValidationInput{Request: req, PathParams: params, Route: route},
		Status:                 status,
		Header:                 header,
		Body:                   io.NopCloser(bytes.NewReader(body)),
		// The status and headers; the body is c.bodies'.
		Options: &openapi3filter.Options{IncludeResponseStatus: true, MultiError: false, ExcludeResponseBody: true},
	}
	if err := openapi3filter.ValidateResponse(context.Background(), in); err != nil {
		return fmt.Errorf("%s %s -> %d: %w", req.Method, route.Path, status, err)
	}
	if err := c.bodies.validate(in, body); err != nil {
		return fmt.Errorf("%s %s -> %d: %w", req.Method, route.Path, status, err)
	}
	return nil
}
