/// One number a dashboard row plots: its row, its label, its value and how to show it.
struct PlotPoint: Equatable, Sendable {
    /// The row's identity within its source, stable across readings (`total`, `cpu3`, `BAT0`).
    let key: String
    /// The row's label, for example `cpu3` or `battery BAT0`.
    let label: String
    /// The value the sparkline plots.
    let value: Double
    /// The value as the row prints it, with its unit.
    let text: String
    /// The sparkline's fixed scale, or nil to scale to the history's own minimum and maximum.
    let scale: ClosedRange<Double>?
}

/// A reading with numbers worth plotting: one ``PlotPoint`` per row.
protocol Plottable {
    /// The rows' points; empty when the reading has nothing to plot (a desktop's power supplies, no battery).
    var plotPoints: [PlotPoint] { get }
}

/// A reading that may hold a ``Plottable`` value: the points of that value, typed, so a dashboard holding
/// `any CatalogReading` reaches them with one cast.
protocol PlottableReading {
    /// The value's points, or nil while the reading is pending or unavailable.
    var plotPoints: [PlotPoint]? { get }
}
