package report

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/johnfercher/maroto/v2/pkg/components/col"
	"github.com/johnfercher/maroto/v2/pkg/components/row"
	"github.com/johnfercher/maroto/v2/pkg/components/text"
	"github.com/johnfercher/maroto/v2/pkg/consts/align"
	"github.com/johnfercher/maroto/v2/pkg/consts/fontstyle"
	"github.com/johnfercher/maroto/v2/pkg/core"
	"github.com/johnfercher/maroto/v2/pkg/props"

	"github.com/assay-dev/assay/pkg/assess"
)

// cover is the first page: what was assessed against what, when, the score, the
// document's fingerprint, the platform key and how to verify.
func (d *doc) cover() {
	r := d.r
	d.add(
		text.NewRow(8, "ASSAY", props.Text{Size: 9, Style: fontstyle.Bold, Color: &muted}),
		row.New().Add(text.NewCol(12, reportTitle(r), props.Text{Size: 22, Style: fontstyle.Bold, Color: &accent, Bottom: 2})),
		row.New().Add(text.NewCol(12, oneLine(r.Title), props.Text{Size: 15, Style: fontstyle.Bold, Bottom: 6})),
	)
	entity := r.EntityName
	if r.EntityType != "" {
		entity += " (" + humanize(r.EntityType) + ")"
	}
	d.field("Entity", entity)
	d.field("Project", r.ProjectName)
	for i, st := range r.Standards {
		label := ""
		if i == 0 {
			label = "Standards"
		}
		name := st.Name + " " + st.Version
		if st.LevelName != "" {
			name += " — " + levelLabel(st.LevelName, "")
		}
		d.field(label, name)
	}
	if r.Attestation != nil {
		d.field("Attestation", humanize(r.State))
		d.field("Assessment", r.AssessmentID)
	} else {
		d.field("State", humanize(r.State))
	}
	d.field("Score", d.scoreLine())
	f := r.Figures
	d.field("Requirements", fmt.Sprintf("%d: %d yes, %d partial, %d no, %d not applicable, %d unanswered",
		f.Total, f.Yes, f.Partial, f.No, f.NotApplicable, f.Unanswered))
	d.field("Created", when(&r.CreatedAt))
	d.field("Started", when(r.StartedAt))
	d.field("Due", r.DueDate)
	d.field("Completed", when(r.EndedAt))
	if a := r.Attestation; a != nil {
		d.field("Frozen", when(a.FrozenAt))
		d.field("Sealed", when(a.SealedAt))
		if a.RescindedAt != nil {
			d.field("Rescinded", when(a.RescindedAt)+": "+a.RescindReason)
		}
		d.field("Valid until", a.ValidUntil)
		d.field("Serial number", a.SerialNumber)
		d.field("Attested by", strings.Join(a.Assessors, ", "))
	}
	d.field("Assessors", strings.Join(r.Assessors, ", "))
	d.field("Assessees", strings.Join(r.Assessees, ", "))
	d.gap(4)
	d.separator()
	d.integrity()
	d.gap(4)
	d.add(text.NewAutoRow("Generated "+when(&r.GeneratedAt)+" for "+orDash(r.GeneratedBy)+".", small()))
}

// scoreLine is the overall score with what it is of.
func (d *doc) scoreLine() string {
	r := d.r
	switch {
	case r.Attestation != nil:
		return percent(r.Score) + " (the attestation's map)"
	case r.Score != nil:
		return percent(r.Score)
	case r.Figures.Score != nil && (r.State == string(assess.AssessmentComplete) || r.State == string(assess.AssessmentArchived)):
		return percent(r.Figures.Score)
	case r.Figures.Score != nil:
		return percent(r.Figures.Score) + " provisional: the assessment is not complete"
	}
	return "— (nothing scores yet)"
}

// integrity prints the document's SHA-256, the platform key and how to verify.
func (d *doc) integrity() {
	r := d.r
	base := strings.TrimRight(r.AppURL, "/")
	jwks := base + "/api/v1/platform-keys/jwks.json"
	key := orDash(r.PlatformKeyID)
	if r.PlatformKeyID == "" {
		key = "— (the platform has signed nothing yet)"
	}
	if a := r.Attestation; a != nil {
		if a.DocumentSHA256 != "" {
			d.hashField("Document SHA-256", a.DocumentSHA256)
			d.add(text.NewAutoRow("Of the stored CycloneDX document, byte for byte: "+base+"/api/v1/attestations/"+r.ID+"/export", indented(small(), 45)))
		} else {
			d.field("Document SHA-256", "— (a draft has no signed document yet)")
		}
		d.hashField("Platform key", key)
		d.field("How to verify", "Export the CycloneDX document (its SHA-256 must match the one above) and run")
		d.command("assay-ctl verify " + r.ID + ".cdx.json --jwks " + jwks)
		d.command("or upload it at " + base + "/attestations/verify")
		return
	}
	d.hashField("Content SHA-256", d.contentHash)
	d.add(text.NewAutoRow("Of this report's content (its data in JSON, without the time of generation): it identifies "+
		"this edition and changes with any result, rationale, claim or evidence. An assessment report is not signed.", indented(small(), 45)))
	d.hashField("Platform key", key)
	d.field("How to verify", "The signed statements are the assessment's attestations: export one and run")
	d.command("assay-ctl verify FILE --jwks " + jwks)
	d.command("or upload it at " + base + "/attestations/verify")
}

// command is a line of the "how to verify" field: a command or an address, kept whole.
func (d *doc) command(s string) {
	d.add(row.New().Add(col.New(3), text.NewCol(9, s, props.Text{Size: 8, Top: 0.4, Bottom: 0.4})))
}

// hashField is a field whose value is a hex digest, set small enough to stay on one line.
func (d *doc) hashField(label, value string) {
	d.add(row.New().Add(
		text.NewCol(3, label, props.Text{Size: 8.5, Style: fontstyle.Bold, Color: &muted, Top: 0.8, Bottom: 0.8}),
		text.NewCol(9, value, props.Text{Size: 8, Top: 0.9, Bottom: 0.8}),
	))
}

// summary gives the figures per standard and per level.
func (d *doc) summary() {
	sizes := []int{4, 1, 1, 1, 1, 1, 1, 2}
	head := []string{"Standard / level", "Req.", "Yes", "Partial", "No", "N/A", "Open", "Score"}
	d.heading(secSummary, true, 0)
	rows := []core.Row{tableRow(sizes, head, props.Text{Size: 8, Style: fontstyle.Bold, Top: 1, Bottom: 1}, true, true)}
	figures := func(name string, f assess.ReportFigures, p props.Text) core.Row {
		return tableRow(sizes, []string{name, strconv.Itoa(f.Total), strconv.Itoa(f.Yes), strconv.Itoa(f.Partial), strconv.Itoa(f.No),
			strconv.Itoa(f.NotApplicable), strconv.Itoa(f.Unanswered), percent(f.Score)}, p, false, true)
	}
	for _, st := range d.r.Standards {
		name := st.Name + " " + st.Version
		if st.LevelName != "" {
			name += " (" + levelLabel(st.LevelName, "") + ")"
		}
		rows = append(rows, figures(name, st.Figures, props.Text{Size: 8.5, Style: fontstyle.Bold, Top: 1, Bottom: 1}))
		for _, lv := range st.Levels {
			rows = append(rows, figures(levelLabel(lv.Identifier, lv.Title), lv.Figures, props.Text{Size: 8, Top: 1, Bottom: 1, Left: 4}))
		}
	}
	rows = append(rows, figures("All requirements", d.r.Figures, props.Text{Size: 8.5, Style: fontstyle.Bold, Top: 1.2, Bottom: 1.2}))
	d.add(rows...)
	d.add(text.NewAutoRow("Score: 100 × (yes + ½ partial) / (yes + partial + no); not applicable and open answers "+
		"are left out. Levels count the requirements of the assessment that belong to them.", indented(small(), 0)))
	if d.r.Attestation != nil {
		d.add(text.NewAutoRow("The attestation's score is the mean of its map's scores, where the assessor may "+
			"override a requirement's score (see the requirements).", small()))
	}
}

// affirmation shows an attestation's statement, signatories, seal and rescission.
func (d *doc) affirmation() {
	a := d.r.Attestation
	d.heading(secAffirmation, false, 60)
	if a.Summary != "" {
		d.subheading("Summary")
		d.para(a.Summary, body())
	}
	d.subheading("Statement")
	d.para(a.Statement, props.Text{Size: 9.5, Top: 0.6, Bottom: 0.6, Left: 4})
	d.subheading("Signatories")
	sizes := []int{3, 2, 3, 4}
	d.add(tableRow(sizes, []string{"Slot", "Kind", "Signed", "Verification"}, props.Text{Size: 8, Style: fontstyle.Bold, Top: 1, Bottom: 1}, true, false))
	if len(a.Signatories) == 0 {
		d.add(text.NewAutoRow("No signatory slots.", small()))
	}
	for _, s := range a.Signatories {
		slot := s.Title
		if s.Organization != "" {
			slot += ", " + s.Organization
		}
		signed := "—"
		if s.SignedAt != nil {
			signed = orDash(s.SignerName) + ", " + when(s.SignedAt)
		}
		verdict := signatoryVerdict(s)
		d.add(tableRow(sizes, []string{slot, orDash(humanize(s.Kind)), signed, verdict}, props.Text{Size: 8, Top: 1, Bottom: 1}, false, false))
		if s.KeyID != "" {
			d.add(text.NewAutoRow("Key "+s.KeyID, indented(small(), 2)))
		}
	}
	d.subheading("Seal and rescission")
	switch {
	case a.SealedAt != nil:
		d.field("Seal", "Sealed "+when(a.SealedAt)+" by platform key "+a.SealKeyID+": "+orDash(a.SealStatus))
	default:
		d.field("Seal", "Not sealed: "+strings.ToLower(humanize(d.r.State)))
	}
	if a.RescindedAt != nil {
		d.field("Rescission", "Rescinded "+when(a.RescindedAt)+": "+a.RescindReason)
	} else {
		d.field("Rescission", "Not rescinded")
	}
	switch {
	case a.DocumentSHA256 == "":
		d.field("Verification", "A draft has no signed document yet.")
	case a.Verified:
		d.field("Verification", "Every signature is valid and made with a trusted key; the signing profile is followed.")
	default:
		d.field("Verification", "Not fully verified: see the signatories and the problems below.")
	}
	for _, p := range a.Problems {
		d.add(text.NewAutoRow("• "+oneLine(p), indented(body(), 4)))
	}
}

// signatoryVerdict words the verification state of a signatory.
func signatoryVerdict(s assess.ReportSignatory) string {
	switch s.Verification {
	case assess.SignatoryUnsigned:
		return "Not signed yet"
	case assess.SignatoryRecorded:
		return "Electronic, recorded and covered by the platform's signatures"
	}
	v := humanize(s.Verification)
	if s.Reason != "" {
		v += ": " + s.Reason
	}
	return v
}

// requirements lists every requirement with its result, rationale and what supports it.
func (d *doc) requirements() {
	d.heading(secRequirements, true, 0)
	standards := map[string]string{}
	for _, st := range d.r.Standards {
		standards[st.ID] = st.Name + " " + st.Version
	}
	current := ""
	for i := range d.r.Requirements {
		q := &d.r.Requirements[i]
		if q.StandardID != current && len(d.r.Standards) > 1 {
			current = q.StandardID
			d.subheading(orDash(standards[q.StandardID]))
		}
		d.requirement(q)
	}
	if len(d.r.Requirements) == 0 {
		d.add(text.NewAutoRow("No requirements are loaded yet: the assessment has not started.", body()))
	}
}

// requirement lays out one requirement.
func (d *doc) requirement(q *assess.ReportRequirement) {
	label := resultLabels[q.Result]
	if label == "" {
		label = humanize(q.Result)
	}
	rp := props.Text{Size: 9, Style: fontstyle.Bold, Align: align.Right, Top: 1, Bottom: 0.5, Color: resultColors[q.Result]}
	d.keepTogether(18, row.New().Add(
		text.NewCol(2, oneLine(q.Identifier), props.Text{Size: 9, Style: fontstyle.Bold, Top: 1, Bottom: 0.5}),
		text.NewCol(8, oneLine(q.Name), props.Text{Size: 9, Top: 1, Bottom: 0.5}),
		text.NewCol(2, label, rp),
	))
	if q.Rationale != "" {
		d.para(q.Rationale, indented(body(), 4))
	} else {
		d.add(text.NewAutoRow("No rationale.", indented(small(), 4)))
	}
	var notes []string
	if d.r.Attestation != nil {
		n := "Score " + fraction(q.Score) + " · confidence " + fraction(q.Confidence)
		if q.ConfidenceRationale != "" {
			n += ": " + q.ConfidenceRationale
		}
		notes = append(notes, n)
	}
	if len(q.Claims) > 0 {
		notes = append(notes, "Claims: "+strings.Join(q.Claims, "; "))
	}
	if len(q.CounterClaims) > 0 {
		notes = append(notes, "Counter-claims: "+strings.Join(q.CounterClaims, "; "))
	}
	if q.EvidenceCount > 0 {
		notes = append(notes, "Evidence linked: "+strconv.Itoa(q.EvidenceCount))
	}
	for _, n := range notes {
		d.add(text.NewAutoRow(oneLine(n), indented(small(), 4)))
	}
	d.separator()
}

// claims lists the claims with what they assert and cite.
func (d *doc) claims() {
	d.heading(secClaims, false, 40)
	switch {
	case d.r.OmittedClaims:
		d.add(text.NewAutoRow("Claims are not shown: reading them needs the permission claims.view.", body()))
		return
	case len(d.r.Claims) == 0:
		d.add(text.NewAutoRow("No claims.", body()))
		return
	}
	for _, c := range d.r.Claims {
		name := c.Name
		if c.Counter {
			name += " (counter-claim)"
		}
		d.add(text.NewAutoRow(oneLine(name), bold(9.5)))
		d.field("Target", c.Target)
		d.field("Predicate", c.Predicate)
		d.field("Reasoning", c.Reasoning)
		d.field("Requirements", strings.Join(c.Requirements, ", "))
		d.field("Evidence cited", strings.Join(c.Evidence, "; "))
		d.field("Counter-evidence", strings.Join(c.CounterEvidence, "; "))
		d.field("Mitigations", strings.Join(c.Mitigations, "; "))
		d.separator()
	}
}

// evidence lists the evidence with each file's name and SHA-256.
func (d *doc) evidence() {
	d.heading(secEvidence, false, 40)
	switch {
	case d.r.OmittedEvidence:
		d.add(text.NewAutoRow("Evidence is not shown: reading it needs the permission evidence.view.", body()))
		return
	case len(d.r.Evidence) == 0:
		d.add(text.NewAutoRow("No evidence.", body()))
		return
	}
	sizes := []int{4, 8}
	for _, e := range d.r.Evidence {
		d.add(row.New().Add(
			text.NewCol(8, oneLine(e.Name), bold(9.5)),
			text.NewCol(4, humanize(e.State)+" · "+orDash(e.Author), props.Text{Size: 8, Color: &muted, Align: align.Right, Top: 1}),
		))
		d.para(e.Description, indented(body(), 2))
		if e.ValidUntil != "" {
			d.add(text.NewAutoRow("Valid until "+e.ValidUntil, indented(small(), 2)))
		}
		if len(e.Files) == 0 {
			d.add(text.NewAutoRow("No files.", indented(small(), 2)))
		}
		for _, f := range e.Files {
			d.add(row.New().Add(
				text.NewCol(sizes[0], oneLine(f.Filename)+" ("+size(f.Size)+")", props.Text{Size: 8, Left: 2, Top: 0.6, Bottom: 0.6}),
				text.NewCol(sizes[1], f.SHA256, props.Text{Size: 7, Top: 0.8, Bottom: 0.6, Align: align.Right}),
			))
		}
		d.separator()
	}
}

// size formats a byte count.
func size(n int64) string {
	switch {
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20))
	case n >= 1<<10:
		return fmt.Sprintf("%.1f KiB", float64(n)/(1<<10))
	}
	return strconv.FormatInt(n, 10) + " B"
}
