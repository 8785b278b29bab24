package node

import (
	"context"
	"testing"

	"github.com/stretchr/testify/require"

	"pslab/engine/testbed/training"
)

func TestPSRejectsMismatchedJob(t *testing.T) {
	t.Parallel()
	// a worker started with another job than its PS fails at Ready
	plan, err := (&training.Job{Profile: "toy", DeviceSpeed: 1, BytesScale: 0.001, Servers: 1, Workers: 1,
		Sync: training.ASP, Transport: training.Multiplexed, Order: training.OrderDefault, Window: 64 * 1024, ConnWindow: 64 * 1024}).LoadPlan()
	require.NoError(t, err)
	srv, err := newPSServer(plan, 0)
	require.NoError(t, err)
	err = srv.register(context.Background(), 0, "other")
	require.ErrorContains(t, err, "differs from PS job")
}
