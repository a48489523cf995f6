package main

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"
)

// clockTicks is USER_HZ, the unit of utime and stime in /proc/<pid>/stat: 100 on every
// Linux architecture Go supports. Elsewhere /proc is missing and usage reads as zero.
const clockTicks = 100

// pidsFunc lists the processes whose usage is measured together (a server, or the
// postmaster and its backends).
type pidsFunc func() []int

// onePID measures a single process.
func onePID(pid int) pidsFunc { return func() []int { return []int{pid} } }

// processTree measures root and its direct children: the postmaster and its backends.
func processTree(root int) pidsFunc {
	return func() []int { return append([]int{root}, childrenOf(root)...) }
}

// cpuSnapshot is the CPU seconds each process has used so far.
type cpuSnapshot map[int]float64

func takeCPU(pids pidsFunc) cpuSnapshot {
	snap := cpuSnapshot{}
	for _, pid := range pids() {
		if s, ok := readStat(pid); ok {
			snap[pid] = s.cpuSeconds
		}
	}
	return snap
}

// since is the CPU used between before and s by the processes alive at s; a process that
// started in between counts from zero, one that exited in between is lost.
func (s cpuSnapshot) since(before cpuSnapshot) float64 {
	total := 0.0
	for pid, after := range s {
		total += after - before[pid]
	}
	return total
}

type procStat struct {
	ppid       int
	cpuSeconds float64
}

// readStat parses /proc/<pid>/stat: the fields after the parenthesised command name are
// state, ppid, … with utime and stime the 12th and 13th of them.
func readStat(pid int) (procStat, bool) {
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return procStat{}, false
	}
	fields := strings.Fields(string(data[bytes.LastIndexByte(data, ')')+1:]))
	if len(fields) < 13 {
		return procStat{}, false
	}
	ppid, _ := strconv.Atoi(fields[1])
	utime, _ := strconv.ParseFloat(fields[11], 64)
	stime, _ := strconv.ParseFloat(fields[12], 64)
	return procStat{ppid: ppid, cpuSeconds: (utime + stime) / clockTicks}, true
}

func childrenOf(ppid int) []int {
	entries, _ := filepath.Glob("/proc/[0-9]*")
	var out []int
	for _, e := range entries {
		pid, err := strconv.Atoi(filepath.Base(e))
		if err != nil {
			continue
		}
		if s, ok := readStat(pid); ok && s.ppid == ppid {
			out = append(out, pid)
		}
	}
	return out
}

// rssMiB reads VmRSS from /proc/<pid>/status; 0 when unavailable.
func rssMiB(pid int) float64 {
	f, err := os.Open(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return 0
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if rest, ok := strings.CutPrefix(sc.Text(), "VmRSS:"); ok {
			kib, _ := strconv.ParseFloat(strings.TrimSuffix(strings.TrimSpace(rest), " kB"), 64)
			return kib / 1024
		}
	}
	return 0
}

// rssSampler records the peak resident memory of one process, sampled every 100 ms
// between start and stop.
type rssSampler struct {
	pid  int
	done chan struct{}
	wg   sync.WaitGroup
	peak float64
}

func startRSSSampler(pid int) *rssSampler {
	s := &rssSampler{pid: pid, done: make(chan struct{}), peak: rssMiB(pid)}
	s.wg.Add(1)
	go func() {
		defer s.wg.Done()
		tick := time.NewTicker(100 * time.Millisecond)
		defer tick.Stop()
		for {
			select {
			case <-s.done:
				return
			case <-tick.C:
				s.peak = max(s.peak, rssMiB(s.pid))
			}
		}
	}()
	return s
}

// stop ends the sampling and returns the peak in MiB.
func (s *rssSampler) stop() float64 {
	close(s.done)
	s.wg.Wait()
	return max(s.peak, rssMiB(s.pid))
}
