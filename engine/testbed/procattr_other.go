//go:build !linux

package testbed

import "os/exec"

func setDeathSignal(*exec.Cmd) {}

func setNice(int, int) {}
