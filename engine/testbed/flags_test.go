package testbed

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// Bad flags and a bad [calibration] are refused by -dry too, naming the
// flag or the key: -network used to be checked only by a real run, and an
// unknown -only name was reported without the flag.
func TestDryRefusesBadFlagsNamingThem(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	good := strings.Replace(loopbackToyConfig("toy", "1", 100, 50, 20), "repetitions = 1", "repetitions = 4", 1) + toyCalibration
	p := filepath.Join(dir, "c.toml")
	require.NoError(t, os.WriteFile(p, []byte(good), 0o644))
	bad := filepath.Join(dir, "bad.toml")
	require.NoError(t, os.WriteFile(bad, bytes.Replace([]byte(good), []byte("step_cv = 0.1"), []byte("step_cv = nan"), 1), 0o644))
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"-network", "carrier-pigeon"}, `testbed run: -network "carrier-pigeon", want auto, netns or loopback`},
		{[]string{"-network", "loopback", "-only", "toy,nope"}, `testbed run: -only: no configuration "nope" (have toy)`},
		{[]string{"-network", "loopback", "-config", bad}, fmt.Sprintf("%s:%d: [calibration] field step_cv: NaN, need a finite value",
			bad, strings.Count(good[:strings.Index(good, "step_cv")], "\n")+1)},
	} {
		var out bytes.Buffer
		err := Main(context.Background(), append([]string{"run", "-dry", "-config", p}, c.args...), Launcher{}, &out, &out)
		require.EqualError(t, err, c.want, "%v", c.args)
	}
	var out bytes.Buffer
	require.NoError(t, Main(context.Background(), []string{"run", "-dry", "-config", p, "-network", "loopback", "-only", "toy"}, Launcher{}, &out, &out))
	err := Main(context.Background(), []string{"repeat", "-config", p, "-network", "carrier-pigeon"}, Launcher{}, &out, &out)
	require.EqualError(t, err, `testbed repeat: -network "carrier-pigeon", want auto, netns or loopback`)
}
