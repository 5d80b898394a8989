import CVigilTestSupport

/// Makes a pipe whose ends are close-on-exec from their creation (`pipe2(2)`); nil, with `errno` set, when there is
/// none to be had.
///
/// Every pipe of the tests is made this way: marked close-on-exec only afterwards, its ends went to whatever child
/// another test spawned in between, which held the pipe open (a reader never saw its end, a child looked hung).
package func closeOnExecPipe() -> (read: Int32, write: Int32)? {
    var ends: [Int32] = [-1, -1]
    guard vigil_test_pipe(&ends) == 0 else { return nil }
    return (ends[0], ends[1])
}
