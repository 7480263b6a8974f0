package ferretdbtest

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"net"
	"sync"
)

// MongoDB applies each write to a document atomically: a filtered update
// matches and writes in one step, $inc hands out each number once, a unique
// index refuses the second of two inserts. FerretDB on SQLite does not: it
// runs a filtered update as a query, then a write by _id, so two
// compare-and-swaps of one document can both succeed. The server therefore
// sits behind a proxy that passes one write command at a time (reads go
// through at once), which gives the tests MongoDB's guarantees.

// writeCommands are the commands the proxy serializes.
var writeCommands = map[string]bool{"insert": true, "update": true, "delete": true, "findAndModify": true, "findandmodify": true}

const (
	opMsg         = 2013
	moreToComeBit = 1 << 1
	maxMessage    = 48 << 20
)

// proxy forwards connections from its listener to the server at backend.
type proxy struct {
	ln      net.Listener
	backend string
	writes  *sync.Mutex

	mu    sync.Mutex
	conns map[net.Conn]bool
	wg    sync.WaitGroup
}

func startProxy(addr, backend string, writes *sync.Mutex) (*proxy, error) {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, err
	}
	p := &proxy{ln: ln, backend: backend, writes: writes, conns: map[net.Conn]bool{}}
	p.wg.Add(1)
	go p.accept()
	return p, nil
}

func (p *proxy) accept() {
	defer p.wg.Done()
	for {
		client, err := p.ln.Accept()
		if err != nil {
			return
		}
		server, err := net.Dial("tcp", p.backend)
		if err != nil {
			_ = client.Close()
			continue
		}
		if !p.track(client, server) {
			return
		}
		p.wg.Add(1)
		go func() {
			defer p.wg.Done()
			p.relay(client, server)
			p.untrack(client, server)
		}()
	}
}

func (p *proxy) track(conns ...net.Conn) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.conns == nil { // stopped
		for _, c := range conns {
			_ = c.Close()
		}
		return false
	}
	for _, c := range conns {
		p.conns[c] = true
	}
	return true
}

func (p *proxy) untrack(conns ...net.Conn) {
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, c := range conns {
		_ = c.Close()
		delete(p.conns, c)
	}
}

// stop closes the listener and every connection, and waits for the relays.
func (p *proxy) stop() {
	_ = p.ln.Close()
	p.mu.Lock()
	for c := range p.conns {
		_ = c.Close()
	}
	p.conns = nil
	p.mu.Unlock()
	p.wg.Wait()
}

// relay passes each request, then its replies, holding the write lock from
// a write command's request to its reply.
func (p *proxy) relay(client, server net.Conn) {
	for {
		req, err := readMessage(client)
		if err != nil {
			return
		}
		locked := isWrite(req)
		if locked {
			p.writes.Lock()
		}
		err = p.exchange(req, client, server)
		if locked {
			p.writes.Unlock()
		}
		if err != nil {
			return
		}
	}
}

func (p *proxy) exchange(req []byte, client, server net.Conn) error {
	if _, err := server.Write(req); err != nil {
		return err
	}
	if moreToCome(req) {
		return nil // the client expects no reply
	}
	for {
		reply, err := readMessage(server)
		if err != nil {
			return err
		}
		if _, err := client.Write(reply); err != nil {
			return err
		}
		if !moreToCome(reply) {
			return nil
		}
	}
}

// readMessage reads one wire-protocol message: a 16-byte header whose first
// field is the whole length, then the rest.
func readMessage(r io.Reader) ([]byte, error) {
	var header [16]byte
	if _, err := io.ReadFull(r, header[:]); err != nil {
		return nil, err
	}
	n := int(binary.LittleEndian.Uint32(header[:4]))
	if n < 16 || n > maxMessage {
		return nil, fmt.Errorf("message of %d bytes", n)
	}
	msg := make([]byte, n)
	copy(msg, header[:])
	if _, err := io.ReadFull(r, msg[16:]); err != nil {
		return nil, err
	}
	return msg, nil
}

func opCode(msg []byte) uint32 { return binary.LittleEndian.Uint32(msg[12:16]) }

func moreToCome(msg []byte) bool {
	return opCode(msg) == opMsg && len(msg) >= 20 && binary.LittleEndian.Uint32(msg[16:20])&moreToComeBit != 0
}

// isWrite reads an OP_MSG's command name: the first key of its body
// section (kind 0), which follows the flags.
func isWrite(msg []byte) bool {
	name, err := commandName(msg)
	return err == nil && writeCommands[name]
}

func commandName(msg []byte) (string, error) {
	// header 16, flags 4, section kind 1, document length 4, element type 1
	const keyAt = 16 + 4 + 1 + 4 + 1
	if opCode(msg) != opMsg || len(msg) <= keyAt || msg[20] != 0 {
		return "", errors.New("not an OP_MSG with a body first")
	}
	for i := keyAt; i < len(msg); i++ {
		if msg[i] == 0 {
			return string(msg[keyAt:i]), nil
		}
	}
	return "", errors.New("unterminated command name")
}
