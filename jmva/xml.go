package jmva

import (
	"encoding/xml"
	"errors"
	"fmt"

	"github.com/clusterperf/clusterperf/fault"
	"github.com/clusterperf/clusterperf/internal/input"
	"github.com/clusterperf/clusterperf/internal/spec"
)

// The XML tree of a .jmva file. Every element keeps its line (for errors); unknown
// elements and attributes are collected in Extra/ExtraAttrs and refused by the reader.

type xModel struct {
	Line        int
	Description *xText       `xml:"description"`
	Parameters  *xParameters `xml:"parameters"`
	AlgParams   *xAny        `xml:"algParams"`
	WhatIf      []xWhatIf    `xml:"whatIf"`
	Solutions   []xSolutions `xml:"solutions"`
	ExtraAttrs  []xml.Attr   `xml:",any,attr"`
	Extra       []xAny       `xml:",any"`
}

type xText struct {
	Line int
	Text string `xml:",chardata"`
}

// xAny swallows an element and its content (algParams: JMVA's solver settings).
type xAny struct {
	XMLName xml.Name
	Line    int
	Inner   []byte `xml:",innerxml"`
}

type xParameters struct {
	Line       int
	Classes    *xClasses  `xml:"classes"`
	Stations   *xStations `xml:"stations"`
	Reference  *xRefs     `xml:"ReferenceStation"`
	ExtraAttrs []xml.Attr `xml:",any,attr"`
	Extra      []xAny     `xml:",any"`
}

type xClasses struct {
	Line    int
	Number  string   `xml:"number,attr"`
	Classes []xClass `xml:",any"`
}

type xClass struct {
	XMLName    xml.Name
	Line       int
	Name       string     `xml:"name,attr"`
	Population string     `xml:"population,attr"`
	Rate       string     `xml:"rate,attr"`
	Priority   string     `xml:"priority,attr"`
	ExtraAttrs []xml.Attr `xml:",any,attr"`
	Extra      []xAny     `xml:",any"`
}

type xStations struct {
	Line     int
	Number   string     `xml:"number,attr"`
	Stations []xStation `xml:",any"`
}

type xStation struct {
	XMLName      xml.Name
	Line         int
	Name         string        `xml:"name,attr"`
	Servers      string        `xml:"servers,attr"`
	ServiceTimes *xServiceSets `xml:"servicetimes"`
	Visits       *xVisits      `xml:"visits"`
	ExtraAttrs   []xml.Attr    `xml:",any,attr"`
	Extra        []xAny        `xml:",any"`
}

// xServiceSets is <servicetimes>: <servicetime> children (LI, delay) or <servicetimes>
// children (LD, ';'-separated).
type xServiceSets struct {
	Line  int
	Times []xValue `xml:"servicetime"`
	Lists []xValue `xml:"servicetimes"`
	Extra []xAny   `xml:",any"`
}

type xVisits struct {
	Line   int
	Visits []xValue `xml:"visit"`
	Extra  []xAny   `xml:",any"`
}

type xValue struct {
	Line       int
	Class      string     `xml:"customerclass,attr"`
	Text       string     `xml:",chardata"`
	ExtraAttrs []xml.Attr `xml:",any,attr"`
}

type xRefs struct {
	Line    int
	Number  string `xml:"number,attr"`
	Classes []struct {
		Name       string `xml:"name,attr"`
		RefStation string `xml:"refStation,attr"`
	} `xml:"Class"`
}

type xWhatIf struct {
	Line       int
	Type       string     `xml:"type,attr"`
	Values     string     `xml:"values,attr"`
	ClassName  string     `xml:"className,attr"`
	Station    string     `xml:"stationName,attr"`
	ExtraAttrs []xml.Attr `xml:",any,attr"`
}

type xSolutions struct {
	Line           int
	OK             string            `xml:"ok,attr"`
	Method         string            `xml:"solutionMethod,attr"`
	AlgCount       string            `xml:"algCount,attr"`
	Iteration      string            `xml:"iteration,attr"`
	IterationValue string            `xml:"iterationValue,attr"`
	Algorithms     []xAlgorithm      `xml:"algorithm"`
	Stations       []xStationResults `xml:"stationresults"` // older files: no <algorithm>
}

type xAlgorithm struct {
	Line       int
	Name       string            `xml:"name,attr"`
	Iterations string            `xml:"iterations,attr"`
	Stations   []xStationResults `xml:"stationresults"`
}

type xStationResults struct {
	Line    int
	Station string `xml:"station,attr"`
	Classes []struct {
		Class    string `xml:"customerclass,attr"`
		Measures []struct {
			Type       string `xml:"measureType,attr"`
			Value      string `xml:"meanValue,attr"`
			Successful string `xml:"successful,attr"`
		} `xml:"measure"`
	} `xml:"classresults"`
}

// lineOf records the decoder's line at the start of each element type that carries Line.
// encoding/xml calls UnmarshalXML with the decoder positioned after the start tag.

func decodeWithLine[T any](d *xml.Decoder, start xml.StartElement, v *T, line *int) error {
	*line, _ = d.InputPos()
	return d.DecodeElement(v, &start)
}

func (x *xModel) UnmarshalXML(d *xml.Decoder, s xml.StartElement) error {
	type p xModel
	var v p
	err := decodeWithLine(d, s, &v, &v.Line)
	*x = xModel(v)
	return err
}
func (x *xText) UnmarshalXML(d *xml.Decoder, s xml.StartElement) error {
	type p xText
	var v p
	err := decodeWithLine(d, s, &v, &v.Line)
	*x = xText(v)
	return err
}
func (x *xAny) UnmarshalXML(d *xml.Decoder, s xml.StartElement) error {
	type p xAny
	var v p
	err := decodeWithLine(d, s, &v, &v.Line)
	*x = xAny(v)
	return err
}
func (x *xParameters) UnmarshalXML(d *xml.Decoder, s xml.StartElement) error {
	type p xParameters
	var v p
	err := decodeWithLine(d, s, &v, &v.Line)
	*x = xParameters(v)
	return err
}
func (x *xClasses) UnmarshalXML(d *xml.Decoder, s xml.StartElement) error {
	type p xClasses
	var v p
	err := decodeWithLine(d, s, &v, &v.Line)
	*x = xClasses(v)
	return err
}
func (x *xClass) UnmarshalXML(d *xml.Decoder, s xml.StartElement) error {
	type p xClass
	var v p
	err := decodeWithLine(d, s, &v, &v.Line)
	*x = xClass(v)
	return err
}
func (x *xStations) UnmarshalXML(d *xml.Decoder, s xml.StartElement) error {
	type p xStations
	var v p
	err := decodeWithLine(d, s, &v, &v.Line)
	*x = xStations(v)
	return err
}
func (x *xStation) UnmarshalXML(d *xml.Decoder, s xml.StartElement) error {
	type p xStation
	var v p
	err := decodeWithLine(d, s, &v, &v.Line)
	*x = xStation(v)
	return err
}
func (x *xServiceSets) UnmarshalXML(d *xml.Decoder, s xml.StartElement) error {
	type p xServiceSets
	var v p
	err := decodeWithLine(d, s, &v, &v.Line)
	*x = xServiceSets(v)
	return err
}
func (x *xVisits) UnmarshalXML(d *xml.Decoder, s xml.StartElement) error {
	type p xVisits
	var v p
	err := decodeWithLine(d, s, &v, &v.Line)
	*x = xVisits(v)
	return err
}
func (x *xValue) UnmarshalXML(d *xml.Decoder, s xml.StartElement) error {
	type p xValue
	var v p
	err := decodeWithLine(d, s, &v, &v.Line)
	*x = xValue(v)
	return err
}
func (x *xWhatIf) UnmarshalXML(d *xml.Decoder, s xml.StartElement) error {
	type p xWhatIf
	var v p
	err := decodeWithLine(d, s, &v, &v.Line)
	*x = xWhatIf(v)
	return err
}
func (x *xSolutions) UnmarshalXML(d *xml.Decoder, s xml.StartElement) error {
	type p xSolutions
	var v p
	err := decodeWithLine(d, s, &v, &v.Line)
	*x = xSolutions(v)
	return err
}
func (x *xStationResults) UnmarshalXML(d *xml.Decoder, s xml.StartElement) error {
	type p xStationResults
	var v p
	err := decodeWithLine(d, s, &v, &v.Line)
	*x = xStationResults(v)
	return err
}

// inputError is a file:line error (spec.Error) that is also fault.ErrInput.
type inputError struct{ e *spec.Error }

func (e inputError) Error() string   { return e.e.Error() }
func (e inputError) Unwrap() []error { return []error{e.e, fault.ErrInput} }

func errAt(file string, line int, format string, args ...any) error {
	// a refusal quotes at most a short excerpt of the file's text (input.Short)
	return inputError{&spec.Error{File: file, Line: line, Msg: fmt.Sprintf(format, input.Short(args)...)}}
}

// errs collects every problem of a file, joined.
type errs struct {
	file string
	list []error
}

func (e *errs) add(line int, format string, args ...any) {
	if len(e.list) < 50 {
		e.list = append(e.list, errAt(e.file, line, format, args...))
	}
}

func (e *errs) err() error {
	if len(e.list) == 0 {
		return nil
	}
	return errors.Join(e.list...)
}
