package experiment

import (
	"fmt"
	"os"
)

// CheckUnique refuses a list of experiment files (as Find returns it) that
// names one file twice (the same path, or two paths to the same file: a
// directory and a file inside it, a link) or two files with the same id:
// each would run twice and write the same figures/<paper>/<name>.*, at the
// same time with parallel runs. The error names both files. A duplicate is
// an error rather than dropped so that a command line that says something
// other than what it means is noticed. Files that cannot be read or parsed
// are skipped here; the run reports them.
func CheckUnique(paths []string) error {
	type seen struct {
		path string
		info os.FileInfo
	}
	var files []seen
	ids := map[string]string{}
	for _, p := range paths {
		st, err := os.Stat(p)
		if err != nil {
			continue
		}
		for _, f := range files {
			if os.SameFile(f.info, st) {
				if f.path == p {
					return fmt.Errorf("%s: the experiment file is given twice; name each experiment once", p)
				}
				return fmt.Errorf("%s: the same experiment file as %s, given twice; name each experiment once", p, f.path)
			}
		}
		files = append(files, seen{p, st})
		s, err := Load(p)
		if err != nil {
			continue
		}
		if other, dup := ids[s.ID]; dup {
			return fmt.Errorf("%s: experiment id %q is also the id of %s: both would write figures/%s/%s.*; "+
				"run one of them, or rename one (the id is <paper>-<file name>)", p, s.ID, other, s.Paper, s.Name)
		}
		ids[s.ID] = p
	}
	return nil
}
