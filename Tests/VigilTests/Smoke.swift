import Testing
import Vigil
@Test func builds() {}
