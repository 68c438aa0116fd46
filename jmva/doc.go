// Package jmva reads and writes the model files of JMVA, the exact-MVA tool of the Java
// Modelling Tools (JMT, Politecnico di Milano; jmt.sourceforge.net), so that a JMVA user can
// solve a .jmva file with clusterperf and open a clusterperf model in JMT.
//
// The format, as JMT's ExactModel writes and reads it (model/parameters/classes,
// model/parameters/stations, model/whatIf, model/solutions; JMTmodel.xsd):
//
//	<model xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xsi:noNamespaceSchemaLocation="JMTmodel.xsd">
//	  <description><![CDATA[text]]></description>
//	  <parameters>
//	    <classes number="2">
//	      <closedclass name="batch" population="8"/>       population: whole number ≥ 0
//	      <openclass name="web" rate="0.5"/>               rate: arrivals per second
//	    </classes>
//	    <stations number="3">
//	      <delaystation name="think"> …servicetimes, visits… </delaystation>
//	      <listation name="cpu" servers="1">                load independent, m servers
//	        <servicetimes><servicetime customerclass="batch">0.01</servicetime>…</servicetimes>
//	        <visits><visit customerclass="batch">121</visit>…</visits>
//	      </listation>
//	      <ldstation name="disk" servers="1">               load dependent
//	        <servicetimes><servicetimes customerclass="batch">0.2;0.12;0.1</servicetimes>…</servicetimes>
//	        <visits>…</visits>                                (service time with 1, 2, 3, … jobs present)
//	      </ldstation>
//	    </stations>
//	    <ReferenceStation number="1"><Class name="batch" refStation="think"/></ReferenceStation>
//	  </parameters>
//	  <algParams>…</algParams>                             ignored (JMVA's solver choice)
//	  <whatIf type="Customer Numbers" className="batch" values="1;2;4;8"/>
//	  <solutions ok="true" solutionMethod="analytical" …>  results saved by JMVA, possibly inside
//	    <algorithm name="MVA">                              an <algorithm> element
//	      <stationresults station="cpu"><classresults customerclass="batch">
//	        <measure measureType="Number of Customers" meanValue="…" successful="true"/>
//	        <measure measureType="Throughput" meanValue="…"/>       station throughput X_c·V
//	        <measure measureType="Residence time" meanValue="…"/>   all visits of one job
//	        <measure measureType="Utilization" meanValue="…"/>
//	  …
//
// Mapping to qn.Model: demand D = S·V (seconds), visits V kept; listation with servers = 1 a
// qn.Queue, servers > 1 qn.MultiServer; delaystation qn.Delay; ldstation qn.LoadDependent
// with rate multipliers α(n) = S(1)/S(n) (the same profile for every class that visits it:
// qn's load-dependent stations are class independent). JMVA has no think time: a think time
// is written as a delay station named "think" with one visit, which solves to the same
// numbers. A group of Count identical stations is written as Count stations "name#1", ….
//
// Reading is strict: unknown elements and attributes, missing or repeated class entries,
// non-numbers, negative times and a class count that disagrees with number= are errors
// naming the file and line (a *spec.Error, fault.ErrInput). The what-if analysis is kept and
// written back unchanged; WhatIf.Sweep maps the kinds clusterperf's --sweep can run.
//
// Checked against JMVA itself: examples/jmt/jmt-*.jmva carry the results JMVA saved for
// three of JMT's own regression models (load dependent, mixed, a service-demand what-if);
// clusterperf's solution agrees with every saved measure to 1e-9 (jmt_test.go).
package jmva
