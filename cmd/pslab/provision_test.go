package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"pslab/engine/dataset"
)

// oneTypeCatalogue writes a catalogue with only the m4.xlarge entry of
// datasets/cynthia/instances.toml and returns its path.
func oneTypeCatalogue(t *testing.T) string {
	t.Helper()
	src := filepath.Join(t.TempDir(), "instances.toml")
	require.NoError(t, os.WriteFile(src, []byte(`id = "t"
title = "t"
[[instances]]
name = "m4.xlarge"
cpu = 3.47e9
cpu_origin = "derived"
cpu_source = "Tables 2 and 4"
bandwidth = 110e6
bandwidth_origin = "reported"
bandwidth_source = "Fig. 7"
price = 0.10
price_origin = "assumed"
price_source = "half of $0.20/h"
`), 0o644))
	tab, err := readInstanceSource(src)
	require.NoError(t, err)
	out := strings.TrimSuffix(src, ".toml") + ".arrow"
	require.NoError(t, dataset.Write(out, tab, dataset.Allocator))
	return out
}

func runProvision(args ...string) (string, error) {
	var out, errb bytes.Buffer
	err := Run(context.Background(), append([]string{"provision", "-root", root}, args...), &out, &errb)
	return out.String() + errb.String(), err
}

func TestProvisionCifar10OnM4HandComputed(t *testing.T) {
	t.Parallel()
	cat := oneTypeCatalogue(t)
	out, err := runProvision("-instances", cat, "-workload", "cifar10", "-beta0", "8000", "-loss", "0.8", "-time", "120")
	require.NoError(t, err, out)
	// s = 8000/0.8 = 10000; n_lower = ceil(26.86e9·1e4/(7200·3.47e9)) = 11;
	// u = 7200·110e6/(2·1e4·4.94e6) = 8.02, n_ps = 2; at 11 workers
	// t_comp = 26.86/(11·3.47) = 0.70370 s > t_comm = 2·4.94·11/220 = 0.494 s:
	// 7037 s = 117.3 min <= 120 min, cost 0.10·13·7037/3600 = $2.541.
	for _, want := range []string{"m4.xlarge ($0.1/h per node)", "workers             11", "PS nodes            2",
		"10000 global iterations", "0.7037 s", "117.3 min", "$2.541", "cheaper than earlier types: 11 workers, 2 PS"} {
		require.Contains(t, out, want)
	}

	// The same profile given by flags gives the same plan.
	byFlags, err := runProvision("-instances", cat, "-w_iter", "26.86", "-g_param", "4.94", "-c_prof", "0.06", "-b_prof", "1.56",
		"-sync", "bsp", "-beta0", "8000", "-loss", "0.8", "-time", "120")
	require.NoError(t, err, byFlags)
	require.Contains(t, byFlags, "$2.541")
	require.Contains(t, byFlags, "workers             11")
}

func TestProvisionOptimusAndSyncOverride(t *testing.T) {
	t.Parallel()
	// ResNet-32 is ASP in Table 1; §5.2 plans it with BSP (C-5).
	out, err := runProvision("-workload", "ResNet-32", "-sync", "bsp", "-beta0", "1800", "-loss", "0.6", "-time", "90", "-model", "optimus")
	require.NoError(t, err, out)
	require.Contains(t, out, "ResNet-32 (BSP)")
	require.Contains(t, out, "optimus model")
	// The Optimus-based plan of cynthia-fig11 (ResNet-32, 90 min): 7 c3.xlarge + 1 PS,
	// $1.142 by its own sum t_comp + t_comm.
	require.Contains(t, out, "c3.xlarge ($0.105/h per node)")
	require.Contains(t, out, "workers             7")
	require.Contains(t, out, "$1.142")
}

func TestProvisionInfeasibleListsReasons(t *testing.T) {
	t.Parallel()
	out, err := runProvision("-workload", "cifar10", "-beta0", "8000", "-loss", "0.8", "-time", "10")
	require.ErrorContains(t, err, "no feasible plan")
	require.ErrorContains(t, err, "[m4.xlarge: worker/PS ratio bound u = 0.668 < 1")
	require.ErrorContains(t, err, "[r3.xlarge:")
	require.Contains(t, out, "no plan reaches loss 0.8 within 10 min")
	require.Contains(t, out, "TYPE")
}

func TestProvisionBadFlags(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"-workload", "mnist", "-loss", "0.8", "-time", "10"}, "-beta0 is required for workload mnist"},
		{[]string{"-workload", "cifar10", "-beta0", "1", "-time", "10"}, "-loss is required"},
		{[]string{"-workload", "cifar10", "-beta0", "1", "-loss", "1"}, "-time is required"},
		{[]string{"-workload", "AlexNet", "-beta0", "1", "-loss", "1", "-time", "1"}, `-workload "AlexNet": not in datasets/reported/cynthia/table4.arrow (valid: ResNet-32, VGG-19, cifar10, mnist)`},
		{[]string{"-workload", "mnist", "-beta0", "1", "-loss", "1", "-time", "1", "-format", "xml"}, `-format "xml"`},
		{[]string{"-workload", "cifar10", "-w_iter", "1", "-beta0", "1", "-loss", "1", "-time", "1"}, "not both"},
		{[]string{"-w_iter", "1", "-beta0", "1", "-loss", "1", "-time", "1"}, "-sync (asp or bsp) is required"},
		{[]string{"-w_iter", "-1", "-sync", "asp", "-beta0", "1", "-loss", "1", "-time", "1"}, "-w_iter -1: want a finite number > 0, in GFLOP"},
		{[]string{"-workload", "mnist", "-sync", "ssp", "-beta0", "1", "-loss", "1", "-time", "1"}, `-sync "ssp"`},
		{[]string{"-workload", "mnist", "-beta0", "1", "-beta1", "-2", "-loss", "1", "-time", "1"}, "Beta1"},
		{[]string{"-workload", "mnist", "-beta0", "1", "-loss", "1", "-time", "1", "-base", "p3.2xlarge"}, `-base "p3.2xlarge" is not in the catalogue`},
		{[]string{"-workload", "mnist", "-beta0", "1", "-loss", "1", "-time", "1", "-model", "paleo"}, `-model "paleo"`},
		{[]string{"-workload", "mnist", "-beta0", "1", "-loss", "1", "-time", "1", "-instances", "nope.arrow"}, "-instances"},
		{[]string{"extra"}, "flags only"},
	} {
		_, err := runProvision(tc.args...)
		require.ErrorContains(t, err, tc.want, "%v", tc.args)
	}
}

func TestInstanceSourceErrorsNameFileAndLine(t *testing.T) {
	t.Parallel()
	good := "id = \"t\"\ntitle = \"t\"\n[[instances]]\nname = \"a\"\ncpu = 1e9\ncpu_origin = \"assumed\"\ncpu_source = \"s\"\n" +
		"bandwidth = 1e8\nbandwidth_origin = \"assumed\"\nbandwidth_source = \"s\"\nprice = 0.1\nprice_origin = \"assumed\"\nprice_source = \"s\"\n"
	for _, tc := range []struct{ src, want string }{
		{strings.Replace(good, `cpu_origin = "assumed"`, `cpu_origin = "guessed"`, 1), `:6: instance "a": cpu_origin "guessed"`},
		{strings.Replace(good, `price_source = "s"`, `price_source = " "`, 1), `:13: instance "a": price_source is empty`},
		{strings.Replace(good, "cpu = 1e9", "cpu = 0.0", 1), `:5: instance "a": cpu = 0`},
		{strings.Replace(good, "price = 0.1", "price = -0.1", 1), "price = -0.1"},
		{good + "[[instances]]\nname = \"a\"\n", `instance "a" listed twice`},
		{strings.Replace(good, "name = \"a\"", "nme = \"a\"", 1), `:4: unknown field "instances.nme"`},
		{"id = \"t\"\ntitle = \"t\"\n", `missing required field "instances"`},
	} {
		p := filepath.Join(t.TempDir(), "instances.toml")
		require.NoError(t, os.WriteFile(p, []byte(tc.src), 0o644))
		_, err := readInstanceSource(p)
		require.ErrorContains(t, err, tc.want)
		require.ErrorContains(t, err, p)
	}
	// The committed catalogue is what its source says.
	tab, err := readInstanceSource(filepath.Join(root, "datasets", "cynthia", "instances.toml"))
	require.NoError(t, err)
	committed, err := dataset.Read(filepath.Join(root, "datasets", "cynthia", "instances.arrow"), dataset.InstanceSchema, dataset.Allocator)
	require.NoError(t, err)
	require.Equal(t, tab.Strings("instance"), committed.Strings("instance"))
	require.Equal(t, tab.Floats("cpu"), committed.Floats("cpu"))
	require.Equal(t, tab.Floats("price"), committed.Floats("price"))
	require.Equal(t, tab.Strings("cpu_origin"), committed.Strings("cpu_origin"))
	require.Equal(t, []string{"derived", "assumed", "assumed", "assumed"}, committed.Strings("cpu_origin"))
}
