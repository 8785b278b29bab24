package node

import (
	"encoding/binary"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"
)

// frame builds an HTTP/2 frame.
func frame(typ, flags byte, stream uint32, payload []byte) []byte {
	b := make([]byte, 9, 9+len(payload))
	b[0], b[1], b[2] = byte(len(payload)>>16), byte(len(payload)>>8), byte(len(payload))
	b[3], b[4] = typ, flags
	binary.BigEndian.PutUint32(b[5:], stream)
	return append(b, payload...)
}

// grpcMsg is a length-prefixed gRPC message.
func grpcMsg(body []byte) []byte {
	b := make([]byte, 5, 5+len(body))
	binary.BigEndian.PutUint32(b[1:], uint32(len(body)))
	return append(b, body...)
}

func TestTapDissectsMessagesAcrossFramesAndReads(t *testing.T) {
	t.Parallel()
	h1 := header{Kind: kindParams, Worker: 2, Step: 7, Tensor: 3}
	h2 := header{Kind: kindParams, Worker: 2, Step: 7, Tensor: 4}
	m1 := grpcMsg(encodeTensor(h1, make([]float32, 1000))) // 4018 bytes
	m2 := grpcMsg(encodeTensor(h2, make([]float32, 10)))
	settings := make([]byte, 12)
	binary.BigEndian.PutUint16(settings, 0x3) // MAX_CONCURRENT_STREAMS
	binary.BigEndian.PutUint32(settings[2:], 100)
	binary.BigEndian.PutUint16(settings[6:], settingInitWindow)
	binary.BigEndian.PutUint32(settings[8:], 70000)
	wu := binary.BigEndian.AppendUint32(nil, 4935)
	var wire []byte
	wire = append(wire, http2Preface...)
	wire = append(wire, frame(frameSettings, 0, 0, settings)...)
	wire = append(wire, frame(frameWindowUpdate, 0, 0, wu)...)
	wire = append(wire, frame(frameHeaders, 0x4, 1, []byte("hpack"))...)
	wire = append(wire, frame(frameHeaders, 0x4, 3, []byte("hpack"))...)
	// m1 split over two DATA frames of stream 1, the second padded,
	// interleaved with m2 on stream 3
	padded := append([]byte{3}, m1[2000:]...)
	padded = append(padded, 0, 0, 0)
	wire = append(wire, frame(frameData, 0, 1, m1[:2000])...)
	wire = append(wire, frame(frameData, flagEndStream, 3, m2)...)
	wire = append(wire, frame(frameData, flagPadded|flagEndStream, 1, padded)...)
	wire = append(wire, frame(frameSettings, flagAck, 0, nil)...)

	rng := rand.New(rand.NewPCG(1, 2))
	for trial := range 20 {
		var got []msgRecord
		p := newH2Parser(true, func(r msgRecord) { got = append(got, r) })
		// feed in random pieces; the time of a piece is its end offset
		for off := 0; off < len(wire); {
			n := 1 + rng.IntN(700)
			if trial == 0 {
				n = len(wire) // one read
			}
			end := min(off+n, len(wire))
			p.feed(wire[off:end], int64(end))
			off = end
		}
		require.Len(t, got, 2, "trial %d", trial)
		require.Equal(t, h2, got[0].Head, "m2 completes first")
		require.Equal(t, h1, got[1].Head)
		require.Equal(t, int64(len(m1)-5), got[1].Bytes)
		require.LessOrEqual(t, got[1].First, got[0].First, "m1 starts first")
		// a time is the end offset of the read that carried the byte
		lastData := int64(len(wire) - 9 - 3) // before the padding and the SETTINGS ack
		require.GreaterOrEqual(t, got[1].Last, lastData)
		if trial == 0 {
			require.Equal(t, int64(len(wire)), got[1].Last)
		}
		require.Equal(t, int64(70000), p.stats.InitialWindow)
		require.Equal(t, int64(4935), p.stats.FirstConnIncrement)
		require.Empty(t, p.streams, "streams ended with END_STREAM are forgotten")
	}
}

func TestWireTensorRoundTrip(t *testing.T) {
	t.Parallel()
	h := header{Kind: kindPush, Worker: 1, Step: 2, Tensor: 3}
	v := []float32{1.5, -2, 3.25}
	b := encodeTensor(h, v)
	got := make([]float32, 3)
	gh, err := decodeTensor(b, kindPush, got)
	require.NoError(t, err)
	require.Equal(t, h, gh)
	require.Equal(t, v, got)
	_, err = decodeTensor(b, kindParams, got)
	require.ErrorContains(t, err, "kind 3, want 2")
	_, err = decodeTensor(b, kindPush, make([]float32, 2))
	require.ErrorContains(t, err, "12 payload bytes, want 8")
	acks := []ack{{Tensor: 4, Decoded: 1, UpdStart: 2, UpdEnd: 3, FirstByte: 4, LastByte: 5}}
	back, err := decodeAcks(encodeAcks(acks))
	require.NoError(t, err)
	require.Equal(t, acks, back)
	_, err = decodeAcks([]byte{1, 2})
	require.Error(t, err)
}
