package golden

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// TestErrorsNameTheirCheck: an error in one [[check]] names that check's
// line, not the first check's header (every validation error used to) nor
// the last check's key (the decoder keys positions without array index).
func TestErrorsNameTheirCheck(t *testing.T) {
	t.Parallel()
	const good = "[[check]]\nmetric = \"a\"\nexpected = 1.0\nsource = \"regression\"\n\n"
	cases := []struct{ name, src, want string }{
		{"wrong type in the first of two", "[[check]]\nmetric = \"a\"\nexpected = \"5.2\"\nsource = \"regression\"\n\n" + good,
			`g.toml:3: check 0: field "check.expected"`},
		{"wrong type in the second", good + "[[check]]\nmetric = \"b\"\n\nexpected = true\nsource = \"regression\"\n",
			`g.toml:9: check 1: field "check.expected"`},
		{"invalid second check", good + "[[check]]\nmetric = \"b\"\nexpected = nan\nsource = \"regression\"\n",
			"g.toml:6: check 1: tolerance"},
		{"invalid third check", good + good + "  [[ check ]]\nseries = \"s\"\nmetric = \"b\"\nexpected = 1.0\nsource = \"regression\"\n",
			"g.toml:11: check 2: set exactly one"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			_, err := Parse("g.toml", []byte(c.src))
			require.Error(t, err)
			require.Contains(t, err.Error(), c.want)
		})
	}
}
