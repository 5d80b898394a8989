import Testing
import VigilSensors

@Test func builds() {}
