# Sourced by ./mvnw and deploy/local/*.sh: sets JAVA_HOME to a JDK of Java 21 or later (the project's floor), so that
# the build, the tests and the service all run on the same one. In order: JAVA_HOME if it is 21+, the `java` on the
# PATH if it is, else the newest 21+ under /usr/lib/jvm (where Debian's packages and Temurin's put them;
# MEMORY_JVM_DIR names another directory). Reads each JDK's `release` file: no JVM is started to ask.
java_major() { # JDK home -> its major version (0 if unknown); bash alone, no other tool
  local line
  if [[ -r "$1/release" ]]; then
    while IFS= read -r line; do
      if [[ $line =~ ^JAVA_VERSION=\"(1\.)?([0-9]+) ]]; then
        echo "${BASH_REMATCH[2]}"
        return
      fi
    done <"$1/release"
  fi
  echo 0
}

memory_java_home() {
  local floor=21 candidate best="" best_major=0 major
  for candidate in "${JAVA_HOME:-}" \
      "$(command -v java >/dev/null 2>&1 && dirname "$(dirname "$(readlink -f "$(command -v java)")")")"; do
    if [[ -n "$candidate" && -x "$candidate/bin/java" && $(java_major "$candidate") -ge $floor ]]; then
      echo "$candidate"
      return 0
    fi
  done
  for candidate in "${MEMORY_JVM_DIR:-/usr/lib/jvm}"/*; do
    major=$(java_major "$candidate")
    if [[ -x "$candidate/bin/java" && $major -ge $floor && $major -gt $best_major ]]; then
      best=$candidate
      best_major=$major
    fi
  done
  if [[ -z "$best" ]]; then
    echo "Memory Chain needs Java $floor or later: set JAVA_HOME to one (found ${JAVA_HOME:-no JAVA_HOME}, $(command -v java || echo 'no java on the PATH'))" >&2
    return 1
  fi
  echo "$best"
}
