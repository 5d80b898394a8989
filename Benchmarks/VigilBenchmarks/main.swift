import Vigil
