package main

// gogen serve: one case per stdin line (a JSON object shaped like a scenario
// case), one result per stdout line, flushed at once. Used by the
// differential tester.

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
)

func serve(in io.Reader, out io.Writer, replays int) error {
	r := bufio.NewReader(in)
	w := bufio.NewWriter(out)
	for {
		line, readErr := r.ReadBytes('\n')
		if len(line) > 0 {
			if _, err := w.Write(serveLine(line, replays)); err != nil {
				return err
			}
			if err := w.Flush(); err != nil {
				return err
			}
		}
		if errors.Is(readErr, io.EOF) {
			return nil
		}
		if readErr != nil {
			return readErr
		}
	}
}

// serveLine answers one request line with one response line. It never
// panics: a malformed request, or a bug in gogen, is {"generatorError": …}.
func serveLine(line []byte, replays int) (response []byte) {
	defer func() {
		if r := recover(); r != nil {
			response = generatorErrorLine(fmt.Errorf("internal panic in gogen: %s", panicText(r)))
		}
	}()
	result, err := serveRequest(line, replays)
	if err != nil {
		return generatorErrorLine(err)
	}
	text, err := writeJSON(result, false)
	if err != nil {
		return generatorErrorLine(err)
	}
	return append(text, '\n')
}

func serveRequest(line []byte, replays int) (any, error) {
	if len(bytes.TrimSpace(line)) == 0 {
		return nil, fmt.Errorf("empty request line")
	}
	dec := json.NewDecoder(bytes.NewReader(line))
	dec.UseNumber()
	var raw any
	if err := dec.Decode(&raw); err != nil {
		return nil, fmt.Errorf("request is not JSON: %v", err)
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return nil, fmt.Errorf("request line holds more than one JSON value")
	}
	tree, err := plainTree("request", raw)
	if err != nil {
		return nil, err
	}
	_, run, err := decodeCase("request", tree, false)
	if err != nil {
		return nil, err
	}
	return replay("request", run, replays)
}

func generatorErrorLine(err error) []byte {
	text, werr := writeJSON(jObject{"generatorError": err.Error()}, false)
	if werr != nil {
		text = []byte(`{"generatorError": "unprintable error"}`)
	}
	return append(text, '\n')
}
