package main

import (
	"errors"
	"fmt"
	"io"

	"github.com/spf13/cobra"

	"github.com/assay-dev/assay/cmd/internal/boot"
)

// Exit statuses. A command fails with 1 unless it says otherwise; verify and sign tell a
// check that failed (1) from input they could not use (2), so scripts can tell "this
// attestation is not valid" from "you called me wrongly".
const (
	exitFailed = 1
	exitUsage  = 2
)

// exitError is a command's failure with the exit status it asks for.
type exitError struct {
	code int
	err  error // nil when the command has said all there is to say on its output
}

func (e *exitError) Error() string {
	if e.err == nil {
		return fmt.Sprintf("exit status %d", e.code)
	}
	return e.err.Error()
}

func (e *exitError) Unwrap() error { return e.err }

// usageError marks err as the caller's mistake: a bad flag or argument, or input that
// cannot be read.
func usageError(err error) error { return &exitError{code: exitUsage, err: err} }

// usageErrorf is usageError with a formatted message.
func usageErrorf(format string, args ...any) error { return usageError(fmt.Errorf(format, args...)) }

// failedSilently is a failed check whose verdict is already on the output.
func failedSilently() error { return &exitError{code: exitFailed} }

// exitStatus writes err for the operator to stderr and returns the process's exit status.
func exitStatus(err error, stderr io.Writer) int {
	if err == nil {
		return 0
	}
	var ee *exitError
	if !errors.As(err, &ee) {
		fmt.Fprintln(stderr, boot.Describe(err))
		return exitFailed
	}
	if ee.err != nil {
		fmt.Fprintln(stderr, boot.Describe(ee.err))
	}
	return ee.code
}

// offline marks a command that needs no configuration, database or environment: it
// replaces any configuration hook a parent declares (cobra runs only the nearest
// PersistentPreRun), and makes flag and argument mistakes usage errors.
func offline(cmd *cobra.Command) *cobra.Command {
	cmd.PersistentPreRunE = func(*cobra.Command, []string) error { return nil }
	cmd.SetFlagErrorFunc(func(_ *cobra.Command, err error) error { return usageError(err) })
	if args := cmd.Args; args != nil {
		cmd.Args = func(c *cobra.Command, a []string) error {
			if err := args(c, a); err != nil {
				return usageError(err)
			}
			return nil
		}
	}
	return cmd
}
