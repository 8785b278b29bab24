//go:build tools

// This file pins the module's dependencies while the packages that use them
// are being written; `go mod tidy` keeps what it imports.
package pslab

import (
	_ "github.com/BurntSushi/toml"
	_ "github.com/apache/arrow/go/v17/arrow/ipc"
	_ "github.com/apache/arrow/go/v17/arrow/memory"
	_ "github.com/stretchr/testify/require"
	_ "gonum.org/v1/gonum/integrate/quad"
	_ "gonum.org/v1/gonum/stat/distuv"
	_ "gonum.org/v1/plot"
	_ "gonum.org/v1/plot/plotter"
	_ "gonum.org/v1/plot/vg/draw"
	_ "google.golang.org/grpc"
	_ "google.golang.org/grpc/encoding"
)
