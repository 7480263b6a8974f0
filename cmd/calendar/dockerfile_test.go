package main

import (
	"os"
	"strings"
	"testing"
)

// No Docker engine runs the tests, so the image's layout is read from the
// Dockerfile: the service runs as a non-root user and writes into its data
// volume, which a new volume only allows when the image's directory under it
// already belongs to that user (a volume takes the ownership of the
// directory it is mounted on; distroless has no shell to fix it at start).
func TestTheImageDataVolumeBelongsToTheUserTheServiceRunsAs(t *testing.T) {
	t.Parallel()
	stages := readDockerfile(t, "../../Dockerfile")
	final := stages[len(stages)-1]
	user, dataDir, volume := "", "", ""
	chowned := map[string]string{} // destination → owner, from COPY --chown before the VOLUME
	made := map[string]bool{}      // directories the build stages make
	for _, s := range stages[:len(stages)-1] {
		for _, in := range s.instructions {
			if in.op == "RUN" && strings.Contains(in.args, "mkdir -p ") {
				for _, f := range strings.Fields(in.args[strings.Index(in.args, "mkdir -p ")+len("mkdir -p "):]) {
					made[s.name+":"+f] = true
				}
			}
		}
	}
	for _, in := range final.instructions {
		switch in.op {
		case "USER":
			user = in.args
		case "ENV":
			for _, f := range strings.Fields(strings.ReplaceAll(in.args, `\`, " ")) {
				if v, ok := strings.CutPrefix(f, "CALENDAR_DATA_DIR="); ok {
					dataDir = v
				}
			}
		case "VOLUME":
			volume = in.args
		case "COPY":
			f := strings.Fields(in.args)
			from, owner := "", ""
			for _, opt := range f[:len(f)-2] {
				if v, ok := strings.CutPrefix(opt, "--from="); ok {
					from = v
				}
				if v, ok := strings.CutPrefix(opt, "--chown="); ok {
					owner = v
				}
			}
			if volume == "" && made[from+":"+f[len(f)-2]] {
				chowned[f[len(f)-1]] = owner
			}
		}
	}
	if user == "" || user == "root" || strings.HasPrefix(user, "0") {
		t.Fatalf("the service runs as %q, want a non-root user", user)
	}
	if dataDir == "" || volume != dataDir {
		t.Fatalf("CALENDAR_DATA_DIR=%q, VOLUME %q: want the volume at the data directory", dataDir, volume)
	}
	if owner := chowned[dataDir]; owner != user {
		t.Fatalf("%s is not made in a build stage and copied owned by %q before the VOLUME (owner %q): the service cannot write to a new volume",
			dataDir, user, owner)
	}
	ignored, err := os.ReadFile("../../.dockerignore")
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"data", ".git"} {
		if !strings.Contains("\n"+string(ignored)+"\n", "\n"+want+"\n") {
			t.Errorf(".dockerignore does not keep %s out of the image", want)
		}
	}
}

type dockerStage struct {
	name         string
	instructions []dockerInstruction
}

type dockerInstruction struct{ op, args string }

// readDockerfile splits a Dockerfile into stages of instructions, joining
// continued lines and dropping comments.
func readDockerfile(t *testing.T, path string) []dockerStage {
	t.Helper()
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var stages []dockerStage
	var line string
	for _, l := range strings.Split(string(raw), "\n") {
		if strings.HasPrefix(strings.TrimSpace(l), "#") {
			continue
		}
		line += l
		if strings.HasSuffix(line, `\`) {
			line = strings.TrimSuffix(line, `\`) + " "
			continue
		}
		op, args, _ := strings.Cut(strings.TrimSpace(line), " ")
		line = ""
		switch op = strings.ToUpper(op); op {
		case "":
		case "FROM":
			name := ""
			if f := strings.Fields(args); len(f) == 3 && strings.EqualFold(f[1], "AS") {
				name = f[2]
			}
			stages = append(stages, dockerStage{name: name})
		default:
			if len(stages) == 0 {
				t.Fatalf("%s before FROM", op)
			}
			s := &stages[len(stages)-1]
			s.instructions = append(s.instructions, dockerInstruction{op, strings.TrimSpace(args)})
		}
	}
	if len(stages) < 2 {
		t.Fatalf("want a build stage and a final one, got %d stages", len(stages))
	}
	return stages
}
