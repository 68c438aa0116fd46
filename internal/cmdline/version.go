package cmdline

import (
	"fmt"
	"runtime/debug"
)

// Version is the module version and VCS revision of the binary: debug.ReadBuildInfo's
// vcs.revision when the build recorded it, else the link-time revision stamped, else a
// "(devel)" that says how to get a revision.
func Version(stamped string) string {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return "(unknown version: built without module information)"
	}
	return versionOf(bi.Main.Version, bi.GoVersion, bi.Settings, stamped)
}

// versionOf formats the version from the build information and the link-time revision.
func versionOf(module, goVersion string, settings []debug.BuildSetting, stamped string) string {
	v := module
	if v == "" {
		v = "(devel)"
	}
	rev, dirty, when := "", false, ""
	for _, s := range settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.modified":
			dirty = s.Value == "true"
		case "vcs.time":
			when = s.Value
		}
	}
	switch {
	case rev != "":
		v += " " + rev
		if dirty {
			v += "+modified"
		}
		if when != "" {
			v += " (" + when + ")"
		}
	case stamped != "":
		v += " " + stamped
	case v == "(devel)":
		v += ` (this build recorded no source revision: see README "Build")`
	}
	return fmt.Sprintf("%s, %s", v, goVersion)
}

// ModuleVersion is the main module's version from the build information, "devel" when it
// has none (the explorer's page shows it).
func ModuleVersion() string {
	if bi, ok := debug.ReadBuildInfo(); ok && bi.Main.Version != "" {
		return bi.Main.Version
	}
	return "devel"
}
