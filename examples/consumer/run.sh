#!/usr/bin/env bash
# Builds the example against the installed io.opscv:opscv-core and runs it as a module, with the flags a dependent
# needs: the Vector API kernels and native access for the library's module.
set -euo pipefail
cd "$(dirname "$0")"
# Maven's own output (and its JVM's warnings) to stdout: stderr is then only what the example's JVM prints.
mvn -B -q package 2>&1
"$JAVA_HOME/bin/java" --add-modules jdk.incubator.vector --enable-native-access=io.opscv \
    --module-path target/classes:target/lib -m io.opscv.example/io.opscv.example.Main
