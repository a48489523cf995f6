package httpapi

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"sort"
	"strings"
	"testing"

	"github.com/danielgtaylor/huma/v2"
	"github.com/stretchr/testify/require"

	"github.com/assay-dev/assay/pkg/assess"
)

// TestRouteTableListsEveryOperation: the route table and the OpenAPI document name the
// same operations, with the same permission, so a URL leads to its handler in one hop.
func TestRouteTableListsEveryOperation(t *testing.T) {
	srv := New(Config{Version: "test"}, Deps{Setup: &fakeSetup{}, Database: &fakeCheck{}})
	var table, document []string
	for _, r := range srv.routes() {
		table = append(table, r.Method+" "+r.Path+" "+r.doc.OperationID+" "+string(r.Permission))
	}
	for path, item := range srv.API.OpenAPI().Paths {
		for method, op := range map[string]*huma.Operation{"GET": item.Get, "POST": item.Post, "PUT": item.Put, "PATCH": item.Patch, "DELETE": item.Delete} {
			if op != nil {
				perm, _ := op.Extensions[ExtPermission].(assess.Perm)
				document = append(document, method+" "+path+" "+op.OperationID+" "+string(perm))
			}
		}
	}
	sort.Strings(table)
	sort.Strings(document)
	require.Equal(t, document, table)
}

// TestHandlersAreShort: every function of the HTTP layer stays under 50 lines, so
// handlers stay thin and the route table stays the map of the API.
func TestHandlersAreShort(t *testing.T) {
	entries, err := os.ReadDir(".")
	require.NoError(t, err)
	fset := token.NewFileSet()
	for _, e := range entries {
		if !strings.HasSuffix(e.Name(), ".go") || strings.HasSuffix(e.Name(), "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, e.Name(), nil, 0)
		require.NoError(t, err)
		for _, d := range f.Decls {
			fn, ok := d.(*ast.FuncDecl)
			if !ok || fn.Body == nil {
				continue
			}
			lines := fset.Position(fn.End()).Line - fset.Position(fn.Pos()).Line + 1
			require.Less(t, lines, 50, "%s: %s is %d lines long", e.Name(), fn.Name.Name, lines)
		}
	}
}
