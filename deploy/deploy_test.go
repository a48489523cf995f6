// Package deploy holds static checks of the container and compose files, which cannot be
// run here (no container engine): they must name programs the image contains, variables
// the service knows, and build steps the Makefile has.
package deploy

import (
	"context"
	"encoding/json"
	"os"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/stretchr/testify/require"
	"go.yaml.in/yaml/v3"

	"github.com/assay-dev/assay/pkg/assess"
	"github.com/assay-dev/assay/pkg/config"
	"github.com/assay-dev/assay/pkg/metrics"
)

type composeFile struct {
	Services map[string]struct {
		Image       string            `yaml:"image"`
		Command     []string          `yaml:"command"`
		Environment map[string]string `yaml:"environment"`
	} `yaml:"services"`
}

func knownVariables(t *testing.T) map[string]bool {
	cfg, err := config.FromEnviron(nil)
	require.NoError(t, err)
	known := map[string]bool{}
	for _, s := range cfg.Settings() {
		known[s.Name] = true
	}
	return known
}

func TestComposeFiles(t *testing.T) {
	dockerfile, err := os.ReadFile("../Dockerfile")
	require.NoError(t, err)
	known := knownVariables(t)
	for _, name := range []string{"compose/evaluation.yml", "compose/production.yml"} {
		t.Run(name, func(t *testing.T) {
			raw, err := os.ReadFile(name)
			require.NoError(t, err)
			var cf composeFile
			require.NoError(t, yaml.Unmarshal(raw, &cf), "compose file must be valid YAML")
			require.NotEmpty(t, cf.Services)
			for svcName, svc := range cf.Services {
				if !strings.Contains(svc.Image, "ASSAY_IMAGE") {
					continue // third-party services (postgres, proxy)
				}
				if len(svc.Command) > 0 {
					require.Contains(t, string(dockerfile), strings.TrimPrefix(svc.Command[0], "/usr/local/bin/"),
						"%s runs a program the image does not contain", svcName)
				}
				for v := range svc.Environment {
					require.True(t, known[v], "%s sets %s, which the service does not know", svcName, v)
				}
			}
		})
	}
}

func TestDockerfileUsesMakefileSteps(t *testing.T) {
	dockerfile, err := os.ReadFile("../Dockerfile")
	require.NoError(t, err)
	makefile, err := os.ReadFile("../Makefile")
	require.NoError(t, err)
	for _, m := range regexp.MustCompile(`make ([a-z-]+)`).FindAllStringSubmatch(string(dockerfile), -1) {
		require.Regexp(t, "(?m)^"+m[1]+":", string(makefile), "Dockerfile calls make %s, which the Makefile lacks", m[1])
	}
	for _, want := range []string{"USER postgres", "VOLUME [\"/app/data\"]", "HEALTHCHECK", "assay-ctl", "healthcheck", "EXPOSE 3001"} {
		require.Contains(t, string(dockerfile), want)
	}
	// The starter standards are fetched (strictly) before the binaries are built, so that
	// a release image carries them (standards/starter/README.md).
	require.Regexp(t, `(?s)RUN bash scripts/fetch-starter-standards\.sh\n.*RUN make go-build`, string(dockerfile))
	// The web stage must build the same way the Makefile does.
	require.Contains(t, string(dockerfile), "npm run build")
	require.Contains(t, string(makefile), "npm run build")
}

// TestGrafanaDashboardQueriesExportedMetrics: every metric the Grafana dashboard queries is
// one the service exports (with the default prefix), so a renamed metric cannot leave a panel
// silently empty.
func TestGrafanaDashboardQueriesExportedMetrics(t *testing.T) {
	data, err := os.ReadFile("grafana/assay-dashboard.json")
	require.NoError(t, err)
	var dash struct {
		Panels []struct {
			Title   string `json:"title"`
			Targets []struct {
				Expr string `json:"expr"`
			} `json:"targets"`
		} `json:"panels"`
	}
	require.NoError(t, json.Unmarshal(data, &dash))
	require.NotEmpty(t, dash.Panels)

	m := metrics.New("cdxa_")
	require.NoError(t, m.Register(metrics.NewJobMetrics(), metrics.NewDomainCollector(func(context.Context) (assess.DomainMetrics, error) {
		return assess.DomainMetrics{RefreshedAt: time.Now(), Assessments: []assess.StateCount{{State: "new"}}, Evidence: []assess.StateCount{{State: "claimed"}},
			Attestations: []assess.StateCount{{State: "sealed"}}, DeliveriesPending: []assess.StateCount{{State: "webhook"}}}, nil
	})))
	m.ObserveHTTP("/api/health", "GET", 200, time.Millisecond)
	pool, err := pgxpool.New(context.Background(), "host=/nonexistent")
	require.NoError(t, err)
	defer pool.Close()
	require.NoError(t, m.RegisterPool(pool))
	families, err := m.Gatherer().Gather()
	require.NoError(t, err)
	exported := map[string]bool{}
	for _, f := range families {
		exported[f.GetName()] = true
	}
	for _, name := range []string{"cdxa_jobs_total", "cdxa_deliveries_total"} { // vectors without a series yet are not gathered
		exported[name] = true
	}
	used := regexp.MustCompile(`\$\{prefix\}([a-z_]+)`)
	for _, p := range dash.Panels {
		require.NotEmpty(t, p.Targets, p.Title)
		for _, target := range p.Targets {
			names := used.FindAllStringSubmatch(target.Expr, -1)
			require.NotEmpty(t, names, "%s: %s queries no metric of ours", p.Title, target.Expr)
			for _, n := range names {
				name := "cdxa_" + strings.TrimSuffix(n[1], "_bucket")
				require.True(t, exported[name], "%s queries %s, which the service does not export", p.Title, name)
			}
		}
	}
}
