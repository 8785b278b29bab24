package main

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"pslab/engine/dataset"
	"pslab/engine/kineto"
	"pslab/engine/timeline"
	"pslab/engine/trace"
	"pslab/engine/zoo"
)

// load reads the input files.
func (f *predictFlags) load(files []string) (*predictInput, error) {
	from := f.from
	if from == "auto" {
		var err error
		if from, err = sniffFormat(files[0]); err != nil {
			return nil, err
		}
	}
	in := &predictInput{files: files, format: from}
	if len(files) > 1 && from != "tf-timeline" {
		return nil, fmt.Errorf("predict: %d input files: only TF timelines (one file per step) come in several files; %s is %s", len(files), files[0], from)
	}
	var err error
	switch from {
	case "trace":
		in.kind = "trace"
		var t *dataset.Table
		if t, err = dataset.Read(files[0], dataset.TraceSchema, dataset.Allocator); err == nil {
			in.trace, err = dataset.ToTrace(t)
		}
	case "tf-timeline":
		in.kind = "trace"
		in.trace, _, err = timeline.ReadFiles(files, trace.Meta{})
	case "profile":
		in.kind = "profile"
		var t *dataset.Table
		if t, err = dataset.Read(files[0], zoo.ProfileSchema, dataset.Allocator); err == nil {
			in.profile, err = zoo.ProfileFromTable(t)
		}
	case "kineto":
		in.kind = "profile"
		in.profile, err = readKineto(files[0])
	case "pipedream":
		in.kind = "profile"
		in.profile, err = parseProfile(files[0])
	default:
		return nil, fmt.Errorf("predict: -from %q (want auto, trace, tf-timeline, profile, kineto or pipedream)", from)
	}
	if err != nil {
		return nil, fmt.Errorf("predict: %s (%s): %w", files[0], from, err)
	}
	switch {
	case f.model != "":
		in.model = f.model
	case in.profile != nil:
		in.model = in.profile.Model
	default:
		in.model = in.trace.Meta.Model
	}
	if in.model == "" {
		in.model = strings.TrimSuffix(filepath.Base(files[0]), filepath.Ext(files[0]))
	}
	if in.profile != nil {
		in.profile.Model = in.model
	} else {
		in.trace.Meta.Model = in.model
	}
	return in, nil
}

func readKineto(path string) (*zoo.Profile, error) {
	r, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer r.Close()
	p, _, err := kineto.Read(r, path, kineto.Options{})
	return p, err
}

// sniffFormat tells the input format from the file name and, for JSON,
// from its first 64 KiB: Kineto traces carry cpu_op events, ProfilerStep
// annotations or distributedInfo; TF timelines name /job: devices.
func sniffFormat(path string) (string, error) {
	base := strings.ToLower(filepath.Base(path))
	switch {
	case strings.HasSuffix(base, ".arrow"):
		t, err := dataset.ReadAny(path, dataset.Allocator)
		if err != nil {
			return "", fmt.Errorf("predict: %w", err)
		}
		switch t.Schema.Name {
		case dataset.TraceSchema.Name:
			return "trace", nil
		case zoo.ProfileSchema.Name:
			return "profile", nil
		}
		return "", fmt.Errorf("predict: %s holds a %q dataset; want a trace (pslab import tf-timeline) or a layer profile (pslab import kineto)", path, t.Schema.Name)
	case strings.HasSuffix(base, ".txt"):
		return "pipedream", nil
	case strings.HasSuffix(base, ".json"), strings.HasSuffix(base, ".json.gz"):
	default:
		return "", fmt.Errorf("predict: %s: cannot tell the format from the name (.arrow, .json, .json.gz or graph.txt); pass -from", path)
	}
	fh, err := os.Open(path)
	if err != nil {
		return "", fmt.Errorf("predict: %w", err)
	}
	defer fh.Close()
	br := bufio.NewReader(fh)
	var r io.Reader = br
	if magic, _ := br.Peek(2); len(magic) == 2 && magic[0] == 0x1f && magic[1] == 0x8b {
		gz, err := gzip.NewReader(br)
		if err != nil {
			return "", fmt.Errorf("predict: %s: %w", path, err)
		}
		r = gz
	}
	head := make([]byte, 64<<10)
	n, err := io.ReadFull(r, head)
	if err != nil && !errors.Is(err, io.ErrUnexpectedEOF) && !errors.Is(err, io.EOF) {
		return "", fmt.Errorf("predict: %s: %w", path, err)
	}
	head = head[:n]
	switch {
	case bytes.Contains(head, []byte(`"cpu_op"`)), bytes.Contains(head, []byte(`"distributedInfo"`)),
		bytes.Contains(head, []byte(`ProfilerStep#`)):
		return "kineto", nil
	case bytes.Contains(head, []byte(`/job:`)):
		return "tf-timeline", nil
	}
	return "", fmt.Errorf("predict: %s: neither a Kineto trace (cpu_op events) nor a TF timeline (/job: devices) in its first 64 KiB; pass -from kineto or -from tf-timeline", path)
}
