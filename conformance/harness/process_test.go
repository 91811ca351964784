package harness

import (
	"os"
	"os/exec"
	"slices"
	"testing"
)

func TestTreeMemory(t *testing.T) {
	cmd := exec.Command("sleep", "30")
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
	if !slices.Contains(descendants(os.Getpid()), cmd.Process.Pid) {
		t.Fatalf("descendants of %d lack the child %d", os.Getpid(), cmd.Process.Pid)
	}
	m, err := treeMemory(os.Getpid())
	if err != nil {
		t.Fatal(err)
	}
	if m.Processes < 2 || m.PeakKiB <= 0 || m.RSSKiB <= 0 {
		t.Errorf("treeMemory = %+v, want this process and its child with resident memory", m)
	}
	if _, err := treeMemory(1 << 30); err == nil {
		t.Error("treeMemory of a missing process must fail")
	}
}
