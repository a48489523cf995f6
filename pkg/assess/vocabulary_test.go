package assess

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// The vocabulary (permission keys, event names, the change catalogue) is declared once
// in this package. These tests read the source of the rest of the service to keep it
// honest: every declared word is used, none is spelled as a bare string elsewhere.

// declared maps the identifiers of this package's string constants and of its Change
// variables to their values (for a Change: its event's identifier, or "").
type declared struct {
	consts  map[string]string // identifier → value
	changes map[string]string // Change identifier → event identifier ("" when not announced)
	actions map[string]string // Change identifier → audit action literal
}

func readDeclarations(t *testing.T) declared {
	t.Helper()
	d := declared{consts: map[string]string{}, changes: map[string]string{}, actions: map[string]string{}}
	for _, f := range parseDir(t, ".") {
		ast.Inspect(f, func(n ast.Node) bool {
			vs, ok := n.(*ast.ValueSpec)
			if !ok {
				return true
			}
			for i, name := range vs.Names {
				if i >= len(vs.Values) {
					continue
				}
				switch v := vs.Values[i].(type) {
				case *ast.BasicLit:
					if s, err := strconv.Unquote(v.Value); err == nil && v.Kind == token.STRING {
						d.consts[name.Name] = s
					}
				case *ast.CompositeLit:
					if id, ok := v.Type.(*ast.Ident); ok && id.Name == "Change" && len(v.Elts) == 2 {
						d.actions[name.Name] = exprText(v.Elts[0], d.consts)
						if ev, ok := v.Elts[1].(*ast.Ident); ok {
							d.changes[name.Name] = ev.Name
						} else {
							d.changes[name.Name] = ""
						}
					}
				}
			}
			return true
		})
	}
	return d
}

func exprText(e ast.Expr, consts map[string]string) string {
	switch v := e.(type) {
	case *ast.BasicLit:
		s, _ := strconv.Unquote(v.Value)
		return s
	case *ast.Ident:
		return consts[v.Name]
	}
	return ""
}

// parseDir parses the non-test Go files of one directory.
func parseDir(t *testing.T, dir string) []*ast.File {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var files []*ast.File
	for _, e := range entries {
		if e.IsDir() || !strings.HasSuffix(e.Name(), ".go") || strings.HasSuffix(e.Name(), "_test.go") {
			continue
		}
		f, err := parser.ParseFile(token.NewFileSet(), filepath.Join(dir, e.Name()), nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, f)
	}
	return files
}

// serviceSource is every non-test Go file of the service outside this package, or of
// the given roots (relative to this package).
func serviceSource(t *testing.T, roots ...string) []*ast.File {
	t.Helper()
	if len(roots) == 0 {
		roots = []string{"../../cmd", "../../jobs", "../../pkg"}
	}
	var files []*ast.File
	for _, root := range roots {
		err := filepath.WalkDir(root, func(path string, e fs.DirEntry, err error) error {
			if err != nil || !e.IsDir() {
				return err
			}
			if path == "." || filepath.Base(path) == "assess" || strings.HasSuffix(path, "test") {
				if filepath.Base(path) == "assess" {
					return fs.SkipDir
				}
			}
			files = append(files, parseDir(t, path)...)
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	if len(files) < 20 {
		t.Fatalf("read only %d files: wrong working directory?", len(files))
	}
	return files
}

// localUses counts the identifiers this package's functions in file name refer to.
func localUses(t *testing.T, name string) map[string]int {
	t.Helper()
	f, err := parser.ParseFile(token.NewFileSet(), name, nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	n := map[string]int{}
	for _, d := range f.Decls {
		if fn, ok := d.(*ast.FuncDecl); ok {
			ast.Inspect(fn.Body, func(node ast.Node) bool {
				if id, ok := node.(*ast.Ident); ok {
					n[id.Name]++
				}
				return true
			})
		}
	}
	return n
}

// uses counts the selector expressions assess.<Name> in files.
func uses(files []*ast.File) map[string]int {
	n := map[string]int{}
	for _, f := range files {
		ast.Inspect(f, func(node ast.Node) bool {
			if sel, ok := node.(*ast.SelectorExpr); ok {
				if x, ok := sel.X.(*ast.Ident); ok && x.Name == "assess" {
					n[sel.Sel.Name]++
				}
			}
			return true
		})
	}
	return n
}

func identOf(consts map[string]string, prefix, value string) string {
	for name, v := range consts {
		if v == value && strings.HasPrefix(name, prefix) {
			return name
		}
	}
	return ""
}

// TestEveryPermissionIsRequiredSomewhere: a key the catalogue offers is required by an
// operation or an object-level rule; a key marked Pending (declared for a feature not
// built yet) is required nowhere, so the mark is removed when the feature lands.
func TestEveryPermissionIsRequiredSomewhere(t *testing.T) {
	d := readDeclarations(t)
	// Operations (the route table) and object-level rules (the store, and the visibility
	// predicates of this package it decides reads with); tools such as the benchmark's seed
	// do not count.
	used := uses(serviceSource(t, "../httpapi", "../postgres"))
	for name, n := range localUses(t, "visibility.go") {
		used[name] += n
	}
	for _, p := range Permissions {
		name := identOf(d.consts, "Perm", string(p.Key))
		if name == "" {
			t.Errorf("%s has no Perm constant", p.Key)
			continue
		}
		switch {
		case p.Pending && used[name] > 0:
			t.Errorf("%s (%s) is required by the service but still marked Pending", p.Key, name)
		case !p.Pending && used[name] == 0:
			t.Errorf("%s (%s) is required by no operation and no rule: mark it Pending or remove it", p.Key, name)
		}
	}
}

// TestEveryEventIsEmittedSomewhere: each event of the catalogue is emitted by the store,
// directly (Announce) or through a change of the catalogue that announces it; each change
// of the catalogue is recorded somewhere.
func TestEveryEventIsEmittedSomewhere(t *testing.T) {
	d := readDeclarations(t)
	used := uses(serviceSource(t))
	emitted := map[string]bool{}
	for change, event := range d.changes {
		if used[change] == 0 {
			t.Errorf("%s is recorded nowhere", change)
			continue
		}
		if event != "" {
			emitted[event] = true
		}
	}
	for _, et := range EventTypes {
		name := identOf(d.consts, "Event", string(et.Type))
		if name == "" {
			t.Errorf("%s has no EventName constant", et.Type)
			continue
		}
		if !emitted[name] && used[name] == 0 {
			t.Errorf("%s (%s) is emitted nowhere", et.Type, name)
		}
	}
}

// TestNoVocabularyAsBareString: outside this package no string literal spells a
// permission key, an event name or an audit action; code names the constants.
func TestNoVocabularyAsBareString(t *testing.T) {
	d := readDeclarations(t)
	words := map[string]string{}
	for _, p := range Permissions {
		words[string(p.Key)] = "permission key"
	}
	for _, et := range EventTypes {
		words[string(et.Type)] = "event name"
	}
	for _, a := range d.actions {
		words[a] = "audit action"
	}
	for _, f := range serviceSource(t) {
		ast.Inspect(f, func(n ast.Node) bool {
			lit, ok := n.(*ast.BasicLit)
			if !ok || lit.Kind != token.STRING {
				return true
			}
			s, err := strconv.Unquote(lit.Value)
			if kind, bad := words[s]; err == nil && bad {
				t.Errorf("%s: the %s %q is spelled as a string; use its constant", f.Name.Name, kind, s)
			}
			return true
		})
	}
	if !slices.Contains(slices.Collect(func(yield func(string) bool) {
		for w := range words {
			if !yield(w) {
				return
			}
		}
	}), string(PermAdminUsers)) {
		t.Fatal("the vocabulary was not read")
	}
}
