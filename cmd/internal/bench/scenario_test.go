package main

import (
	"io"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

func TestBuiltinScenarioParses(t *testing.T) {
	t.Parallel()
	sc, err := parseScenario(scenarioJSON)
	require.NoError(t, err)
	phases, err := selectPhases(sc, "")
	require.NoError(t, err)
	require.Len(t, phases, len(sc.Operations)+1, "each operation, then the mix")
	require.Equal(t, mixedPhase, phases[len(phases)-1].name)
}

func TestScenarioRefusesMistakes(t *testing.T) {
	t.Parallel()
	for name, doc := range map[string]string{
		"unknown placeholder": `{"operations":[{"name":"a","method":"GET","path":"/u/{{nope}}","credential":"none"}]}`,
		"unclosed":            `{"operations":[{"name":"a","method":"GET","path":"/u/{{userId","credential":"none"}]}`,
		"unknown credential":  `{"operations":[{"name":"a","method":"GET","path":"/","credential":"token"}]}`,
		"relative path":       `{"operations":[{"name":"a","method":"GET","path":"api","credential":"none"}]}`,
		"twice":               `{"operations":[{"name":"a","method":"GET","path":"/","credential":"none"},{"name":"a","method":"GET","path":"/","credential":"none"}]}`,
		"misspelt field":      `{"operations":[{"name":"a","method":"GET","path":"/","credential":"none","wieght":1}]}`,
	} {
		_, err := parseScenario([]byte(doc))
		require.Error(t, err, name)
	}
}

func TestRequestFillsPlaceholdersAndCredentials(t *testing.T) {
	t.Parallel()
	sc, err := parseScenario([]byte(`{"operations":[
		{"name":"get","method":"GET","path":"/api/v1/users/{{userId}}","credential":"apiKey"},
		{"name":"post","method":"POST","path":"/x","body":"{\"id\":\"{{userId}}\"}","credential":"session"}]}`))
	require.NoError(t, err)
	d := &Dataset{UserIDs: []string{"u_1"}, APIKeys: []string{"k0", "k1"}, Sessions: []string{"s0"}}
	r := rand.New(rand.NewPCG(1, 2))

	req, err := sc.Operations[0].request("http://h", d, r, 3)
	require.NoError(t, err)
	require.Equal(t, "http://h/api/v1/users/u_1", req.URL.String())
	require.Equal(t, "Bearer k1", req.Header.Get("Authorization"))

	req, err = sc.Operations[1].request("http://h", d, r, 3)
	require.NoError(t, err)
	require.Equal(t, sessionCookie+"=s0", req.Header.Get("Cookie"))
	require.Equal(t, "http://h", req.Header.Get("Origin"))
	require.Equal(t, int64(len(`{"id":"u_1"}`)), req.ContentLength)
}

func TestWeightedPicksInProportion(t *testing.T) {
	t.Parallel()
	a, b := &Operation{Name: "a", Weight: 1}, &Operation{Name: "b", Weight: 3}
	pick, r := weighted([]*Operation{a, b}), rand.New(rand.NewPCG(1, 2))
	n := 0
	for range 10000 {
		if pick(r) == b {
			n++
		}
	}
	require.InDelta(t, 7500, n, 300)
}

func TestSummarizeTakesNearestRankPercentiles(t *testing.T) {
	t.Parallel()
	var lat []time.Duration
	for i := 100; i >= 1; i-- {
		lat = append(lat, time.Duration(i)*time.Millisecond)
	}
	res := summarize("x", lat, 2*time.Second)
	require.Equal(t, 50.0, res.P50Ms)
	require.Equal(t, 99.0, res.P99Ms)
	require.Equal(t, 100.0, res.MaxMs)
	require.Equal(t, 50.0, res.ReqPerSec)
}

func TestUploadSendsADifferentFileEachTime(t *testing.T) {
	t.Parallel()
	sc, err := parseScenario([]byte(`{"operations":[{"name":"up","method":"POST","path":"/e/{{uploadEvidenceId}}/attachments",
		"upload":{"field":"file","filename":"a.txt","bytes":1000},"credential":"participantKey"}]}`))
	require.NoError(t, err)
	d := &Dataset{UploadEvidenceIDs: []string{"ev_1"}, ParticipantKeys: []string{"p0"}}
	r := rand.New(rand.NewPCG(1, 2))
	var files [][]byte
	for range 2 {
		req, err := sc.Operations[0].request("http://h", d, r, 0)
		require.NoError(t, err)
		require.Equal(t, "Bearer p0", req.Header.Get("Authorization"))
		require.NoError(t, req.ParseMultipartForm(1<<20))
		fh := req.MultipartForm.File["file"]
		require.Len(t, fh, 1)
		require.Equal(t, "a.txt", fh[0].Filename)
		require.EqualValues(t, 1000, fh[0].Size)
		f, err := fh[0].Open()
		require.NoError(t, err)
		data, err := io.ReadAll(f)
		require.NoError(t, err)
		files = append(files, data)
	}
	require.NotEqual(t, files[0], files[1])

	_, err = parseScenario([]byte(`{"operations":[{"name":"up","method":"POST","path":"/x","body":"{}",
		"upload":{"field":"file","filename":"a.txt","bytes":1000},"credential":"apiKey"}]}`))
	require.Error(t, err, "body and upload at once")
}

func TestSelectPhasesTakesSeveralNames(t *testing.T) {
	t.Parallel()
	sc, err := parseScenario(scenarioJSON)
	require.NoError(t, err)
	phases, err := selectPhases(sc, "get-user,mixed")
	require.NoError(t, err)
	require.Equal(t, "get-user", phases[0].name)
	require.Equal(t, mixedPhase, phases[1].name)
	_, err = selectPhases(sc, "get-user,nope")
	require.Error(t, err)
}
