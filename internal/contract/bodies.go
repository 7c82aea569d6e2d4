package contract

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"mime"
	"net/http"
	"net/url"
	"strings"
	"sync"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/getkin/kin-openapi/openapi3filter"
	"github.com/getkin/kin-openapi/routers"
	"github.com/santhosh-tekuri/jsonschema/v6"
)

// bodies validates JSON answers' bodies against docs/openapi.yaml's
// schemas, each compiled once (JSON Schema 2020-12, OpenAPI 3.1's dialect)
// and kept: kin-openapi's ValidateResponse compiles an OpenAPI 3.1 schema
// again at every answer it validates (160 µs and 76 kB for a seat grant,
// some 8% of the server package's test CPU time).
type bodies struct {
	doc any // the document as JSON values, compiled from by pointer

	mu       sync.Mutex
	comp     *jsonschema.Compiler
	compiled map[*openapi3.SchemaRef]*jsonschema.Schema
}

const apiURL = "file:///openapi.json"

// newBodies takes the loaded document; its formats are asserted as
// kin-openapi asserts them (openapi3.SchemaStringFormats: date-time, ...).
func newBodies(doc *openapi3.T) (*bodies, error) {
	js, err := json.Marshal(doc)
	if err != nil {
		return nil, err
	}
	val, err := jsonschema.UnmarshalJSON(bytes.NewReader(js))
	if err != nil {
		return nil, err
	}
	comp := jsonschema.NewCompiler()
	comp.DefaultDraft(jsonschema.Draft2020)
	for name := range openapi3.SchemaStringFormats {
		comp.RegisterFormat(&jsonschema.Format{Name: name, Validate: func(v any) error {
			s, ok := v.(string)
			if !ok {
				return nil
			}
			return openapi3.SchemaStringFormats[name].Validate(s)
		}})
	}
	comp.AssertFormat()
	if err := comp.AddResource(apiURL, val); err != nil {
		return nil, err
	}
	return &bodies{doc: val, comp: comp, compiled: map[*openapi3.SchemaRef]*jsonschema.Schema{}}, nil
}

// pointer escapes one token of a JSON pointer for a URL's fragment.
var pointer = strings.NewReplacer("~", "~0", "/", "~1")

// schema is the compiled schema of an answer's body: at its $ref, or
// where the operation's answer for status has it under media type.
func (b *bodies) schema(route *routers.Route, status, media string, ref *openapi3.SchemaRef) (*jsonschema.Schema, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if s, ok := b.compiled[ref]; ok {
		return s, nil
	}
	loc := ref.Ref
	if !strings.HasPrefix(loc, "#/") {
		loc = "#/paths/" + pointer.Replace(route.Path) + "/" + strings.ToLower(route.Method) +
			"/responses/" + pointer.Replace(status) + "/content/" + pointer.Replace(media) + "/schema"
	}
	frag := strings.Split(loc[1:], "/")
	for i, tok := range frag {
		frag[i] = url.PathEscape(tok)
	}
	s, err := b.comp.Compile(apiURL + "#" + strings.Join(frag, "/"))
	if err != nil {
		return nil, err
	}
	b.compiled[ref] = s
	return s, nil
}

// validate checks an answer's body as openapi3filter.ValidateResponse
// does (called with ExcludeResponseBody, it checks the rest), but with
// the compiled schemas; a body not JSON goes back to it.
func (b *bodies) validate(in *openapi3filter.ResponseValidationInput, body []byte) error {
	route := in.RequestValidationInput.Route
	switch {
	case in.RequestValidationInput.Request.Method == http.MethodHead,
		in.Status == http.StatusNotModified, in.Status == http.StatusPermanentRedirect,
		in.Status == http.StatusTemporaryRedirect, in.Status == http.StatusMovedPermanently:
		return nil // openapi3filter validates none of these
	}
	responses := route.Operation.Responses
	respRef := responses.Status(in.Status)
	if respRef == nil {
		respRef = responses.Default()
	}
	if respRef == nil || respRef.Value == nil || len(respRef.Value.Content) == 0 {
		return nil // undocumented statuses failed already; no content, no body to check
	}
	content := respRef.Value.Content
	mt := content.Get(in.Header.Get("Content-Type"))
	if mt == nil || mt.Schema == nil {
		in.Options.ExcludeResponseBody = false // its error for an unexpected type
		return openapi3filter.ValidateResponse(context.Background(), in)
	}
	kind, _, _ := mime.ParseMediaType(in.Header.Get("Content-Type"))
	if kind != "application/json" && !strings.HasSuffix(kind, "+json") {
		in.Options.ExcludeResponseBody = false
		return openapi3filter.ValidateResponse(context.Background(), in)
	}
	status, media := keyOf(responses.Map(), respRef), keyOf(content, mt)
	s, err := b.schema(route, status, media, mt.Schema)
	if err != nil {
		return fmt.Errorf("compile the schema of answer %s (%s): %w", status, media, err)
	}
	v, err := jsonschema.UnmarshalJSON(bytes.NewReader(body))
	if err != nil {
		return fmt.Errorf("failed to decode response body: %w", err)
	}
	if err := s.Validate(v); err != nil {
		return fmt.Errorf("response body doesn't match schema: %w", err)
	}
	return nil
}

// keyOf is the key of m whose value is v.
func keyOf[V comparable](m map[string]V, v V) string {
	for k, x := range m {
		if x == v {
			return k
		}
	}
	return ""
}
