package conns

import (
	"io"
	"net"
	"strings"
	"testing"
	"time"
)

// The server's sendfile path and its half close look for these methods on
// the connection; wrapped, a TCP connection must keep them.
func TestATCPConnectionKeepsItsReadFromAndCloseWrite(t *testing.T) {
	inner, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	l := NewListener(inner, Limits{Total: 1, PerAddr: 1, PerNetwork: 1}, nil)
	defer l.Close()
	client, err := net.Dial("tcp", l.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer client.Close()
	_ = client.SetDeadline(time.Now().Add(time.Minute)) // a hang guard only
	c, err := l.Accept()
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if _, ok := c.(*Conn).Conn.(io.ReaderFrom); !ok {
		t.Fatal("the accepted connection is not a TCP one")
	}
	if _, err := c.(io.ReaderFrom).ReadFrom(strings.NewReader("hello")); err != nil {
		t.Fatal(err)
	}
	if err := c.(interface{ CloseWrite() error }).CloseWrite(); err != nil {
		t.Fatal(err)
	}
	got, err := io.ReadAll(client) // ends at the half close
	if err != nil || string(got) != "hello" {
		t.Fatalf("read %q, %v", got, err)
	}
	if _, err := client.Write([]byte("still open")); err != nil {
		t.Fatal(err)
	}
	buf := make([]byte, len("still open"))
	if _, err := io.ReadFull(c, buf); err != nil || string(buf) != "still open" {
		t.Fatalf("after the half close the server read %q, %v", buf, err)
	}
}
