package main

import (
	"encoding/json"
	"fmt"
	"log/slog"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/assay-dev/assay/pkg/httpapi"
)

// The contract check of the whole end-to-end suite: every server the tests start reports
// each answer it gives (operation and status) to liveAnswers, and once every test has run
// TestMain requires each status to be listed under its operation's responses in the API
// description. A status an operation can answer but does not document fails the run.

// liveAnswers records the answers of every end-to-end server of this test process.
var liveAnswers = &answerLog{seen: map[answer]int{}}

// answer is an operation (route pattern and method) and a status it answered with.
type answer struct {
	method, route string
	status        int
}

type answerLog struct {
	mu   sync.Mutex
	seen map[answer]int
}

// ObserveHTTP implements httpapi.RequestObserver.
func (l *answerLog) ObserveHTTP(route, method string, status int, _ time.Duration) {
	if route == "unmatched" {
		return
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	l.seen[answer{method: method, route: route, status: status}]++
}

// undocumented returns the recorded answers whose status the description does not list
// for their operation, and how many operations the answers covered. Routes that are not
// operations (the docs, metrics) are not checked; HEAD is checked as GET.
func (l *answerLog) undocumented(doc map[string]any) (problems []string, covered int) {
	l.mu.Lock()
	defer l.mu.Unlock()
	paths, _ := doc["paths"].(map[string]any)
	ops := map[string]bool{}
	for a, n := range l.seen {
		item, ok := paths[a.route].(map[string]any)
		if !ok {
			continue
		}
		method := strings.ToLower(a.method)
		if method == "head" {
			method = "get"
		}
		op, ok := item[method].(map[string]any)
		if !ok {
			problems = append(problems, fmt.Sprintf("%s %s answered %d (%d times) but is not an operation", a.method, a.route, a.status, n))
			continue
		}
		ops[method+" "+a.route] = true
		responses, _ := op["responses"].(map[string]any)
		code := strconv.Itoa(a.status)
		if _, ok := responses[code]; ok {
			continue
		}
		if _, ok := responses[code[:1]+"XX"]; ok {
			continue
		}
		if _, ok := responses["default"]; ok {
			continue
		}
		problems = append(problems, fmt.Sprintf("%s %s answered %d (%d times), which its responses do not list", a.method, a.route, a.status, n))
	}
	slices.Sort(problems)
	return problems, len(ops)
}

// checkLiveAnswers compares the recorded answers with the API description; it returns the
// exit code of the test process.
func checkLiveAnswers() int {
	srv := httpapi.New(httpapi.Config{Version: "contract-check"}, httpapi.Deps{Logger: slog.New(slog.DiscardHandler)})
	raw, err := srv.OpenAPIDocument()
	if err != nil {
		fmt.Fprintln(os.Stderr, "live answers: the API description:", err)
		return 1
	}
	var doc map[string]any
	if err := json.Unmarshal(raw, &doc); err != nil {
		fmt.Fprintln(os.Stderr, "live answers: the API description:", err)
		return 1
	}
	problems, covered := liveAnswers.undocumented(doc)
	if len(problems) > 0 {
		fmt.Fprintf(os.Stderr, "--- FAIL: live answers of the end-to-end suite that the API description does not list:\n\t%s\n",
			strings.Join(problems, "\n\t"))
		return 1
	}
	if testing.Verbose() {
		fmt.Printf("live answers: %d operations gave %d distinct (route, method, status) answers, all documented\n", covered, len(liveAnswers.seen))
	}
	return 0
}

// TestUndocumentedAnswersAreFound proves the check: it flags a status an operation does not
// list, accepts listed, range and default responses, checks HEAD as GET and skips routes
// that are not operations.
func TestUndocumentedAnswersAreFound(t *testing.T) {
	t.Parallel()
	doc := map[string]any{"paths": map[string]any{
		"/api/v1/things/{id}": map[string]any{
			"get":    map[string]any{"responses": map[string]any{"200": nil, "404": nil}},
			"delete": map[string]any{"responses": map[string]any{"2XX": nil}},
			"patch":  map[string]any{"responses": map[string]any{"default": nil}},
		},
	}}
	log := &answerLog{seen: map[answer]int{}}
	for _, a := range []answer{
		{"GET", "/api/v1/things/{id}", 200}, {"HEAD", "/api/v1/things/{id}", 404}, {"DELETE", "/api/v1/things/{id}", 204},
		{"PATCH", "/api/v1/things/{id}", 409}, {"GET", "/api/v1/docs/{file}", 404},
		{"GET", "/api/v1/things/{id}", 409}, {"DELETE", "/api/v1/things/{id}", 404}, {"PUT", "/api/v1/things/{id}", 200},
	} {
		log.ObserveHTTP(a.route, a.method, a.status, 0)
	}
	log.ObserveHTTP("unmatched", "GET", 404, 0)
	problems, covered := log.undocumented(doc)
	require.Equal(t, []string{
		"DELETE /api/v1/things/{id} answered 404 (1 times), which its responses do not list",
		"GET /api/v1/things/{id} answered 409 (1 times), which its responses do not list",
		"PUT /api/v1/things/{id} answered 200 (1 times) but is not an operation",
	}, problems)
	require.Equal(t, 3, covered)
}
