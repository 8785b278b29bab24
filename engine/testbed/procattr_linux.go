package testbed

import (
	"os/exec"
	"syscall"
)

// setDeathSignal makes the child get SIGKILL if the coordinator dies, so
// no PS or worker outlives an interrupted run.
func setDeathSignal(c *exec.Cmd) {
	c.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
}

// setNice sets the scheduling priority of process pid (best effort).
func setNice(pid, nice int) {
	syscall.Setpriority(syscall.PRIO_PROCESS, pid, nice)
}
