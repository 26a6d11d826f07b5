package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"golang.org/x/mod/modfile"
	modpkg "golang.org/x/mod/module"
	"golang.org/x/mod/zip"
)

// A module is one module of the repository to publish.
type module struct {
	Path    string // module path
	Version string // the version its tag names
	Subdir  string // its directory in the repository ("." for the root)
}

// ErrReplace is the error of a go.mod that replaces a module: its users'
// builds would ignore the replace.
var ErrReplace = errors.New("go.mod has a replace directive, which Go ignores outside this module: its users could not build it")

// publish writes m, as it is at revision rev of the repository at repo,
// into the proxy directory out.
func publish(out, repo, rev string, m module) error {
	if err := modpkg.Check(m.Path, m.Version); err != nil {
		return err
	}
	gomod, err := gitShow(repo, rev, path.Join(m.Subdir, "go.mod"))
	if err != nil {
		return err
	}
	if err := checkGoMod(m, gomod); err != nil {
		return err
	}
	escaped, err := modpkg.EscapePath(m.Path)
	if err != nil {
		return err
	}
	dir := filepath.Join(out, filepath.FromSlash(escaped), "@v")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	base := filepath.Join(dir, m.Version)
	zf, err := os.Create(base + ".zip")
	if err != nil {
		return err
	}
	// The revision's files, as git archive gives them (what the module
	// proxy zips for a tag); zip.CreateFromDir leaves out the nested
	// modules. zip.CreateFromVCS would do both, but it needs a .git
	// directory, which a worktree does not have.
	tree, err := os.MkdirTemp("", "release-tree-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tree)
	if err := gitExport(repo, rev, tree); err != nil {
		return err
	}
	if err := zip.CreateFromDir(zf, modpkg.Version{Path: m.Path, Version: m.Version}, filepath.Join(tree, filepath.FromSlash(m.Subdir))); err != nil {
		zf.Close()
		return fmt.Errorf("%s: %w", m.Path, err)
	}
	if err := zf.Close(); err != nil {
		return err
	}
	if err := os.WriteFile(base+".mod", gomod, 0o644); err != nil {
		return err
	}
	info, _ := json.Marshal(struct {
		Version string
		Time    time.Time
	}{m.Version, time.Now().UTC().Truncate(time.Second)})
	if err := os.WriteFile(base+".info", info, 0o644); err != nil {
		return err
	}
	return addToList(filepath.Join(dir, "list"), m.Version)
}

// checkGoMod refuses a go.mod that names another module or has a replace.
func checkGoMod(m module, data []byte) error {
	f, err := modfile.Parse(path.Join(m.Subdir, "go.mod"), data, nil)
	if err != nil {
		return err
	}
	if f.Module == nil || f.Module.Mod.Path != m.Path {
		return fmt.Errorf("%s/go.mod does not declare module %s", m.Subdir, m.Path)
	}
	if len(f.Replace) > 0 {
		var olds []string
		for _, r := range f.Replace {
			olds = append(olds, r.Old.Path+" => "+r.New.Path)
		}
		return fmt.Errorf("%s (%s): %w", path.Join(m.Subdir, "go.mod"), strings.Join(olds, ", "), ErrReplace)
	}
	return nil
}

// addToList adds version to a proxy's version list, once.
func addToList(list, version string) error {
	data, err := os.ReadFile(list)
	if err != nil && !os.IsNotExist(err) {
		return err
	}
	versions := strings.Fields(string(data))
	if slices.Contains(versions, version) {
		return nil
	}
	versions = append(versions, version)
	return os.WriteFile(list, []byte(strings.Join(versions, "\n")+"\n"), 0o644)
}

// gitExport writes the files of a revision into dir.
func gitExport(repo, rev, dir string) error {
	archive := exec.Command("git", "-C", repo, "archive", "--format=tar", rev)
	extract := exec.Command("tar", "-x", "-C", dir)
	// Each its own buffer: the two run at once.
	var archiveErr, extractErr bytes.Buffer
	archive.Stderr, extract.Stderr = &archiveErr, &extractErr
	pipe, err := archive.StdoutPipe()
	if err != nil {
		return err
	}
	extract.Stdin = pipe
	if err := extract.Start(); err != nil {
		return err
	}
	if err := archive.Run(); err != nil {
		extract.Wait()
		return fmt.Errorf("git archive %s: %v: %s", rev, err, strings.TrimSpace(archiveErr.String()))
	}
	if err := extract.Wait(); err != nil {
		return fmt.Errorf("extracting %s: %v: %s", rev, err, strings.TrimSpace(extractErr.String()))
	}
	return nil
}

// gitShow returns a file as it is at a revision.
func gitShow(repo, rev, file string) ([]byte, error) {
	cmd := exec.Command("git", "-C", repo, "show", rev+":"+file)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("git show %s:%s: %v: %s", rev, file, err, strings.TrimSpace(stderr.String()))
	}
	return out, nil
}
