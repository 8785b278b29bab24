package timeline

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
)

// role is what a timeline process (pid) is to the importer.
type role uint8

const (
	laneSkip   role = iota // not an op lane: Tensors, GPU streams, allocators, other jobs
	laneWorker             // the worker's " Compute" lane
	lanePS                 // a parameter server's " Compute" lane
)

// lane is a classified process_name.
type lane struct {
	role role
	task int    // task index of the worker or PS
	name string // the process name, for errors
}

// taskRE matches the job and task of a TensorFlow device name, e.g.
// "/job:ps/replica:0/task:1/device:CPU:0".
var taskRE = regexp.MustCompile(`/job:([A-Za-z0-9_]+)/replica:\d+/task:(\d+)`)

// parseTask returns the job and task of a device name.
func parseTask(device string) (job string, task int, ok bool) {
	m := taskRE.FindStringSubmatch(device)
	if m == nil {
		return "", 0, false
	}
	t, err := strconv.Atoi(m[2])
	if err != nil || t > 1<<20 {
		return "", 0, false
	}
	return m[1], t, true
}

// classifyLane classifies a TensorFlow timeline process name. Op lanes
// end in " Compute" and belong to job "worker" or "ps"; GPU tracer lanes
// ("/stream:", "/memcpy") repeat the ops as kernels and are skipped, as
// are " Tensors" lanes, allocators and other jobs (e.g. localhost).
func classifyLane(name string) lane {
	l := lane{name: name}
	if !strings.HasSuffix(name, " Compute") || strings.Contains(name, "/stream:") || strings.Contains(name, "/memcpy") {
		return l
	}
	job, task, ok := parseTask(name)
	if !ok {
		return l
	}
	switch job {
	case "worker":
		l.role = laneWorker
	case "ps":
		l.role = lanePS
	default:
		return l
	}
	l.task = task
	return l
}

// psTask returns the PS task of a send_device value.
func psTask(device string) (int, error) {
	job, task, ok := parseTask(device)
	if !ok || job != "ps" {
		return 0, fmt.Errorf("send_device %q is not a /job:ps/replica:R/task:K device", device)
	}
	return task, nil
}

// Device names the writer uses.
func workerDevice() string { return "/job:worker/replica:0/task:0/device:CPU:0" }
func psDevice(task int) string {
	return "/job:ps/replica:0/task:" + strconv.Itoa(task) + "/device:CPU:0"
}
