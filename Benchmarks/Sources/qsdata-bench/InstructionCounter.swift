import CSQLiteBench

/// Marks each timed body for callgrind: under `valgrind --tool=callgrind --instr-atstart=no`
/// (what `instructions.sh` runs), `begin()` starts counting and `end()` writes the instructions
/// executed since, by every thread, to a dump labelled `workload|implementation|repetition`.
/// Outside valgrind both do nothing measurable.
@MainActor
final class InstructionCounter {
    let isActive = csqlitebench_running_on_valgrind() != 0
    var label = ""

    func begin() {
        if isActive { csqlitebench_callgrind_begin() }
    }

    func end() {
        if isActive { csqlitebench_callgrind_end(label) }
    }
}
