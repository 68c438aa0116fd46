package qn

import (
	"fmt"
	"sort"

	"github.com/clusterperf/clusterperf/internal/spec"
)

// FileFormat documents the model file read by ParseModel (shown by `clusterperf help solve`).
const FileFormat = `A model file is YAML (or JSON). Units are seconds and jobs per second.

  name: web shop                  # optional title
  classes:                        # one or more
    - name: batch                 # closed class: a fixed population
      population: 20              #   whole number ≥ 0
      think_time: 5               #   seconds at the terminals (default 0)
    - name: web                   # open class: Poisson arrivals
      arrival_rate: 0.8           #   jobs per second ≥ 0
  stations:                       # one or more
    - name: cpu
      type: queue                 # queue (= fcfs, ps) | delay (= is) | multiserver | ld
      demand: 0.05                # seconds per job, the same for every class, or per class:
    - name: disk
      type: multiserver
      servers: 4                  # multiserver: m ≥ 1
      demand: {batch: 0.2, web: 0.1}
    - name: array
      type: ld                    # load-dependent: rate multipliers α(1), α(2), …
      rates: [1, 1.8, 2.4]        #   α(n) = last value for larger n
      visits: {batch: 3, web: 1}  # visits per job (number or per class; default 1) …
      service_time: 0.01          # … × seconds per visit (number or per class)
    - name: node
      type: queue
      count: 64                   # 64 identical copies, solved once (default 1)
      demand: 0.001

A class missing from a per-class map has demand 0 there. Give either demand, or
service_time (with optional visits), not both.`

// ParseModel decodes a model file (see FileFormat). Every problem is reported with the file
// name and line; the model returned has passed Validate.
func ParseModel(file string, data []byte) (*Model, string, error) {
	d, root, err := spec.Parse(file, data)
	if err != nil {
		return nil, "", err
	}
	top := root.Map("name", "classes", "stations")
	name := top["name"].String()
	m := &Model{}
	if !top["classes"].Valid() {
		root.Errorf("missing field classes")
	}
	if !top["stations"].Valid() {
		root.Errorf("missing field stations")
	}
	classIdx := map[string]int{}
	for i, cn := range top["classes"].List() {
		f := cn.Map("name", "population", "think_time", "arrival_rate")
		c := Class{Name: f["name"].String()}
		if c.Name == "" {
			c.Name = fmt.Sprintf("class%d", i+1)
		}
		if _, dup := classIdx[c.Name]; dup {
			cn.Errorf("class name %q used twice", c.Name)
		}
		classIdx[c.Name] = i
		pop, arr := f["population"], f["arrival_rate"]
		switch {
		case pop.Valid() && arr.Valid():
			cn.Errorf("give population (closed class) or arrival_rate (open class), not both")
		case pop.Valid():
			c.Population = pop.Int(0, 100_000_000)
			if t := f["think_time"]; t.Valid() {
				c.ThinkTime = t.NonNeg()
			}
		case arr.Valid():
			c.Open = true
			c.ArrivalRate = arr.NonNeg()
			if t := f["think_time"]; t.Valid() {
				t.Errorf("an open class has no think time")
			}
		default:
			cn.Errorf("needs population (closed class) or arrival_rate (open class)")
		}
		m.Classes = append(m.Classes, c)
	}
	C := len(m.Classes)
	stations := top["stations"].List()
	m.Demand = make([][]float64, C)
	visits := make([][]float64, C)
	for c := range m.Demand {
		m.Demand[c] = make([]float64, len(stations))
		visits[c] = make([]float64, len(stations))
	}
	haveVisits := false
	names := map[string]bool{}
	for k, sn := range stations {
		f := sn.Map("name", "type", "servers", "rates", "count", "demand", "visits", "service_time")
		s := Station{Name: f["name"].String(), Kind: Queue, Count: 1}
		if s.Name == "" {
			s.Name = fmt.Sprintf("station%d", k+1)
		}
		if names[s.Name] {
			sn.Errorf("station name %q used twice", s.Name)
		}
		names[s.Name] = true
		if t := f["type"]; t.Valid() {
			kind, err := ParseKind(t.String())
			if err != nil {
				t.Errorf("%v", err)
			}
			s.Kind = kind
		}
		if sv := f["servers"]; sv.Valid() {
			if s.Kind != MultiServer {
				sv.Errorf("servers is only for type multiserver")
			}
			s.Servers = sv.Int(1, 1<<30)
		} else if s.Kind == MultiServer {
			sn.Errorf("type multiserver needs servers")
		}
		if rv := f["rates"]; rv.Valid() {
			if s.Kind != LoadDependent {
				rv.Errorf("rates is only for type ld")
			}
			for _, r := range rv.List() {
				s.Rates = append(s.Rates, r.Positive())
			}
		} else if s.Kind == LoadDependent {
			sn.Errorf("type ld needs rates: [α(1), α(2), …]")
		}
		if cv := f["count"]; cv.Valid() {
			s.Count = cv.Int(1, 1<<30)
		}
		dem, vis, st := f["demand"], f["visits"], f["service_time"]
		switch {
		case dem.Valid() && (vis.Valid() || st.Valid()):
			sn.Errorf("give demand, or service_time (with optional visits), not both")
		case dem.Valid():
			perClass(dem, classIdx, C, func(c int, v float64) {
				m.Demand[c][k] = v
				if v > 0 {
					visits[c][k] = 1
				}
			})
		case st.Valid():
			haveVisits = true
			sv := make([]float64, C)
			vv := make([]float64, C)
			for c := range vv {
				vv[c] = 1
			}
			perClass(st, classIdx, C, func(c int, v float64) { sv[c] = v })
			if vis.Valid() {
				for c := range vv {
					vv[c] = 0
				}
				perClass(vis, classIdx, C, func(c int, v float64) { vv[c] = v })
			}
			for c := 0; c < C; c++ {
				m.Demand[c][k] = vv[c] * sv[c]
				visits[c][k] = vv[c]
			}
		case vis.Valid():
			vis.Errorf("visits needs service_time")
		default:
			sn.Errorf("needs demand, or service_time (with optional visits)")
		}
		m.Stations = append(m.Stations, s)
	}
	if haveVisits {
		m.Visits = visits
	}
	if err := d.Err(); err != nil {
		return nil, "", err
	}
	if err := m.Validate(); err != nil {
		return nil, "", &spec.Error{File: file, Msg: err.Error()}
	}
	return m, name, nil
}

// perClass reads a number (the same for every class) or a mapping class → number ≥ 0.
func perClass(n spec.Node, classIdx map[string]int, C int, set func(c int, v float64)) {
	if n.IsMap() {
		fields := n.Map()
		names := make([]string, 0, len(fields))
		for name := range fields {
			names = append(names, name)
		}
		sort.Strings(names)
		for _, name := range names {
			v := fields[name]
			c, ok := classIdx[name]
			if !ok {
				v.Errorf("no class named %q", name)
				continue
			}
			set(c, v.NonNeg())
		}
		return
	}
	v := n.NonNeg()
	for c := 0; c < C; c++ {
		set(c, v)
	}
}
