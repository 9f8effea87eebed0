//! Lines of points over two axes, either of which may be logarithmic: the
//! cactus plot of a comparison (instances finished against the time each
//! took) and the survival plot of a run-time distribution (the fraction of
//! runs still going against their length, log-log, where a heavy tail is a
//! straight line: Gomes, Selman, Crato & Kautz 2000).

use plotters::coord::ranged1d::{AsRangedCoord, Ranged, ValueFormatter};
use plotters::prelude::*;

use super::{FONT, LogAxis, Series, colour, compact, draw_legend, label_zero_column, label_zero_row, plot_error};

/// One axis of an [`XyChart`].
#[derive(Clone, Debug, PartialEq)]
pub struct Axis {
    /// What the axis measures.
    pub description: String,
    /// A logarithmic scale (values of zero or less are drawn on a "0" row below the decades).
    pub log: bool,
}

impl Axis {
    /// A linear axis.
    pub fn linear(description: impl Into<String>) -> Axis {
        Axis { description: description.into(), log: false }
    }

    /// A logarithmic axis.
    pub fn log(description: impl Into<String>) -> Axis {
        Axis { description: description.into(), log: true }
    }
}

/// Lines of points in one panel, one colour per series.
#[derive(Clone, Debug, PartialEq)]
pub struct XyChart {
    /// The chart's title.
    pub title: String,
    /// The horizontal axis.
    pub x_axis: Axis,
    /// The vertical axis.
    pub y_axis: Axis,
    /// The lines.
    pub series: Vec<Series>,
    /// Draw each line as a step function (a survival curve steps down at each
    /// point) instead of joining the points directly.
    pub steps: bool,
}

/// The bounds of a linear axis over `values`, from 0 (or below, for negative
/// values) to a little above the largest.
fn linear_bounds(values: impl Iterator<Item = f64>) -> (f64, f64) {
    let (mut min, mut max) = (0.0f64, 0.0f64);
    for v in values.filter(|v| v.is_finite()) {
        min = min.min(v);
        max = max.max(v);
    }
    if max <= min {
        max = min + 1.0;
    }
    (min, max + (max - min) * 0.04)
}

/// Draws an [`XyChart`] as SVG.
pub fn xy_chart(chart: &XyChart) -> anyhow::Result<String> {
    let (width, height) = (900u32, 520u32);
    let xs = || chart.series.iter().flat_map(|s| s.points.iter().map(|&(x, _)| x));
    let ys = || chart.series.iter().flat_map(|s| s.points.iter().map(|&(_, y)| y));
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, (width, height)).into_drawing_area();
        root.fill(&WHITE).map_err(plot_error)?;
        let area = root.titled(&chart.title, (FONT, 18)).map_err(plot_error)?;
        let y = LogAxis::new(ys(), 0.0);
        match (chart.x_axis.log, chart.y_axis.log) {
            (true, true) => {
                let x = LogAxis::new(xs(), 0.0);
                draw(&area, chart, x.range().log_scale(), &|v| x.place(v), x.zero, &y)?
            }
            (false, true) => {
                let (lo, hi) = linear_bounds(xs());
                draw(&area, chart, lo..hi, &|v| v, None, &y)?
            }
            _ => anyhow::bail!("an xy chart has a logarithmic vertical axis"),
        }
        root.present().map_err(plot_error)?;
    }
    Ok(svg)
}

/// Draws the chart with the horizontal coordinate `x_spec`; `x_place` moves
/// values onto the axis (zeros onto the "0" row of a log axis).
fn draw<X>(
    area: &DrawingArea<SVGBackend<'_>, plotters::coord::Shift>,
    chart: &XyChart,
    x_spec: X,
    x_place: &dyn Fn(f64) -> f64,
    x_zero: Option<f64>,
    y: &LogAxis,
) -> anyhow::Result<()>
where
    X: AsRangedCoord<Value = f64>,
    X::CoordDescType: Ranged<ValueType = f64> + ValueFormatter<f64>,
{
    let mut context = ChartBuilder::on(area)
        .margin(12)
        .margin_right(24)
        .x_label_area_size(44)
        .y_label_area_size(64)
        .build_cartesian_2d(x_spec, y.range().log_scale())
        .map_err(plot_error)?;
    context
        .configure_mesh()
        .x_desc(&chart.x_axis.description)
        .y_desc(&chart.y_axis.description)
        .x_label_formatter(&|v| compact(*v))
        .y_label_formatter(&|v| compact(*v))
        .label_style((FONT, 12))
        .axis_desc_style((FONT, 13))
        .light_line_style(BLACK.mix(0.04))
        .bold_line_style(BLACK.mix(0.15))
        .draw()
        .map_err(plot_error)?;
    for (i, series) in chart.series.iter().enumerate() {
        let colour = colour(i);
        let points: Vec<(f64, f64)> = series.points.iter().map(|&(px, py)| (x_place(px), y.place(py))).collect();
        let line: Vec<(f64, f64)> = if chart.steps {
            let mut steps = Vec::with_capacity(points.len() * 2);
            for (k, &point) in points.iter().enumerate() {
                if k > 0 {
                    steps.push((point.0, points[k - 1].1));
                }
                steps.push(point);
            }
            steps
        } else {
            points.clone()
        };
        let style = colour.stroke_width(2);
        context
            .draw_series(LineSeries::new(line, style))
            .map_err(plot_error)?
            .label(series.name.clone())
            .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 20, y)], style));
        if !chart.steps {
            context
                .draw_series(points.iter().map(|&point| Circle::new(point, 3, colour.filled())))
                .map_err(plot_error)?;
        }
    }
    if let Some(zero) = y.zero {
        label_zero_row(area, &context, zero)?;
    }
    if let Some(zero) = x_zero {
        label_zero_column(area, &context, zero)?;
    }
    draw_legend(&mut context)
}
