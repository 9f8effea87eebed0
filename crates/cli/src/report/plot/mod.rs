//! SVG charts drawn with `plotters` (its SVG backend only): horizontal bar
//! charts on a log scale, for comparisons, log-scale cost curves with a
//! fraction on a second axis, for sweeps, and lines over two axes
//! ([`xy_chart`]) for cactus and survival plots.
//!
//! On a log axis, values of zero (a failure at the root explores 0 nodes)
//! are drawn on a row of their own labelled "0", half a decade below the
//! lowest decade, never on the "1" gridline; values that are lower bounds (a
//! limit stopped some runs) are drawn as hollow triangles pointing up.
//!
//! Text is written as SVG `<text>` elements, so no font is needed to make the
//! file: `plotters` estimates text sizes itself when it is built without its
//! `ttf` feature, and the viewer renders the text with its own sans-serif font.

mod xy;

use std::ops::Range;
use std::path::Path;

use anyhow::{Context as _, anyhow};
use plotters::coord::Shift;
use plotters::coord::cartesian::Cartesian2d;
use plotters::coord::ranged1d::Ranged;
use plotters::element::DashedPathElement;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

/// The series colours (Tableau 10), in order.
const PALETTE: [RGBColor; 10] = [
    RGBColor(0x4E, 0x79, 0xA7),
    RGBColor(0xF2, 0x8E, 0x2B),
    RGBColor(0xE1, 0x57, 0x59),
    RGBColor(0x76, 0xB7, 0xB2),
    RGBColor(0x59, 0xA1, 0x4F),
    RGBColor(0xB0, 0x7A, 0xA1),
    RGBColor(0x9C, 0x75, 0x5F),
    RGBColor(0xED, 0xC9, 0x48),
    RGBColor(0xFF, 0x9D, 0xA7),
    RGBColor(0xBA, 0xB0, 0xAC),
];

/// The colour of series `i`.
fn colour(i: usize) -> RGBColor {
    PALETTE[i % PALETTE.len()]
}

pub use xy::{Axis, XyChart, xy_chart};

const FONT: &str = "sans-serif";
const GREY: RGBColor = RGBColor(0x55, 0x55, 0x55);

/// One panel of a bar chart: one value per bar.
#[derive(Clone, Debug, PartialEq)]
pub struct BarPanel {
    /// The panel's title.
    pub title: String,
    /// The value axis' description.
    pub axis: String,
    /// One value per label (the bars); values of zero or less get no bar.
    pub values: Vec<f64>,
}

/// A chart of horizontal bars on a log scale: one row per label, one panel
/// per quantity, side by side, with each bar's value written beside it.
pub fn bar_chart(title: &str, labels: &[String], panels: &[BarPanel]) -> anyhow::Result<String> {
    let longest = labels.iter().map(|l| l.chars().count()).max().unwrap_or(0);
    let label_width = (longest as u32 * 7 + 16).max(40);
    let panel_width = 380;
    let width = label_width + panel_width * panels.len().max(1) as u32 + 20;
    let height = 110 + 28 * labels.len().max(1) as u32;
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, (width, height)).into_drawing_area();
        root.fill(&WHITE).map_err(plot_error)?;
        let root = root.titled(title, (FONT, 18)).map_err(plot_error)?;
        // The first panel also holds the labels.
        let breaks: Vec<u32> = (1..panels.len() as u32).map(|i| label_width + panel_width * i).collect();
        let areas = root.split_by_breakpoints(breaks, Vec::<u32>::new());
        for (i, (panel, area)) in panels.iter().zip(&areas).enumerate() {
            let label_area = if i == 0 { label_width } else { 8 };
            bar_panel(area, panel, labels, label_area, colour(i))?;
        }
        root.present().map_err(plot_error)?;
    }
    Ok(svg)
}

fn bar_panel(
    area: &DrawingArea<SVGBackend<'_>, Shift>,
    panel: &BarPanel,
    labels: &[String],
    label_area: u32,
    colour: RGBColor,
) -> anyhow::Result<()> {
    let n = labels.len();
    let (lowest_decade, hi) = log_bounds(panel.values.iter().copied(), 0.8);
    let lo = lowest_decade * BELOW_LOWEST_DECADE;
    let mut chart = ChartBuilder::on(area)
        .caption(&panel.title, (FONT, 15))
        .margin(8)
        .margin_right(16)
        .x_label_area_size(40)
        .y_label_area_size(label_area)
        // An integer range includes its end in plotters: `0..n - 1` is n segments.
        .build_cartesian_2d((lo..hi).log_scale(), (0..n.saturating_sub(1)).into_segmented())
        .map_err(plot_error)?;
    // Row 0 is drawn at the top: segment `n - 1 - i` holds label `i`.
    let label_of = |value: &SegmentValue<usize>| match value {
        SegmentValue::CenterOf(s) if *s < n && label_area > 8 => labels[n - 1 - s].clone(),
        _ => String::new(),
    };
    chart
        .configure_mesh()
        .disable_y_mesh()
        .y_labels(n)
        .y_label_formatter(&label_of)
        .x_label_formatter(&|v| compact(*v))
        .x_desc(&panel.axis)
        .label_style((FONT, 12))
        .axis_desc_style((FONT, 13))
        .light_line_style(WHITE.mix(0.0))
        .draw()
        .map_err(plot_error)?;
    for (i, &value) in panel.values.iter().enumerate() {
        let segment = n - 1 - i;
        if value > 0.0 {
            let mut bar = Rectangle::new(
                [(lo, SegmentValue::Exact(segment)), (value, SegmentValue::Exact(segment + 1))],
                colour.filled(),
            );
            bar.set_margin(4, 4, 0, 0);
            chart.draw_series(std::iter::once(bar)).map_err(plot_error)?;
        }
        let at = if value > lo { value } else { lo };
        let text = Text::new(
            format!(" {}", compact(value)),
            (at, SegmentValue::CenterOf(segment)),
            (FONT, 12).into_font().color(&BLACK).pos(Pos::new(HPos::Left, VPos::Center)),
        );
        chart.draw_series(std::iter::once(text)).map_err(plot_error)?;
    }
    Ok(())
}

/// A named line of `(x, y)` points.
#[derive(Clone, Debug, PartialEq)]
pub struct Series {
    /// The legend entry.
    pub name: String,
    /// The points, in order of `x`.
    pub points: Vec<(f64, f64)>,
    /// Drawn dashed (to tell apart curves that may lie on top of each other).
    pub dashed: bool,
    /// Per point, whether its value is only a lower bound (a limit stopped
    /// some runs): such points are drawn as hollow triangles pointing up, not
    /// as plain points. Empty when no point is.
    pub lower_bounds: Vec<bool>,
}

impl Series {
    /// A solid line through `points`, none of them a lower bound.
    pub fn new(name: impl Into<String>, points: Vec<(f64, f64)>) -> Series {
        Series { name: name.into(), points, dashed: false, lower_bounds: Vec::new() }
    }

    fn is_lower_bound(&self, i: usize) -> bool {
        self.lower_bounds.get(i).copied().unwrap_or(false)
    }
}

/// Log axes start this fraction of their lowest decade: plotters puts its
/// first gridline at `10^ceil(log10(start))`, and `log10(0.01)` is
/// `-1.9999999999999996` in floating point, so an axis starting exactly at
/// 0.01 had no gridline, and no label, at 0.01.
const BELOW_LOWEST_DECADE: f64 = 0.98;

/// A log-scale axis over some values: the decades that cover the positive
/// values and, when some values are zero (or less), a row for them half a
/// decade below, labelled "0" by [`label_zero_row`].
#[derive(Clone, Copy, Debug, PartialEq)]
struct LogAxis {
    /// The lowest decade.
    lo: f64,
    /// The top of the axis.
    top: f64,
    /// Where the zeros go, when there are any.
    zero: Option<f64>,
}

impl LogAxis {
    fn new(values: impl Iterator<Item = f64> + Clone, headroom: f64) -> LogAxis {
        let (lo, top) = log_bounds(values.clone(), headroom);
        let zero = values.into_iter().any(|v| v <= 0.0).then(|| lo / 10f64.sqrt());
        LogAxis { lo, top, zero }
    }

    /// The axis' range, from just below the lowest decade (or the zero row).
    fn range(&self) -> Range<f64> {
        self.zero.unwrap_or(self.lo) * BELOW_LOWEST_DECADE..self.top
    }

    /// Where `value` is drawn: on the zero row if it is not positive.
    fn place(&self, value: f64) -> f64 {
        if value > 0.0 { value } else { self.zero.unwrap_or(self.lo) }
    }
}

/// Labels the zero row of a log `y` axis "0" and draws its gridline.
fn label_zero_row<X, Y>(
    area: &DrawingArea<SVGBackend<'_>, Shift>,
    context: &ChartContext<'_, SVGBackend<'_>, Cartesian2d<X, Y>>,
    zero: f64,
) -> anyhow::Result<()>
where
    X: Ranged,
    Y: Ranged<ValueType = f64>,
{
    let (x_pixels, _) = context.plotting_area().get_pixel_range();
    let y_pixel = context.backend_coord(&(context.x_range().start, zero)).1;
    let (base_x, base_y) = area.get_base_pixel();
    let line = PathElement::new(
        vec![(x_pixels.start - base_x, y_pixel - base_y), (x_pixels.end - base_x, y_pixel - base_y)],
        BLACK.mix(0.15),
    );
    area.draw(&line).map_err(plot_error)?;
    let style = (FONT, 12).into_font().color(&BLACK).pos(Pos::new(HPos::Right, VPos::Center));
    area.draw(&Text::new("0", (x_pixels.start - base_x - 6, y_pixel - base_y), style)).map_err(plot_error)
}

/// Labels the zero column of a log `x` axis "0".
fn label_zero_column<X, Y>(
    area: &DrawingArea<SVGBackend<'_>, Shift>,
    context: &ChartContext<'_, SVGBackend<'_>, Cartesian2d<X, Y>>,
    zero: f64,
) -> anyhow::Result<()>
where
    X: Ranged<ValueType = f64>,
    Y: Ranged,
{
    let (_, y_pixels) = context.plotting_area().get_pixel_range();
    let x_pixel = context.backend_coord(&(zero, context.y_range().start)).0;
    let (base_x, base_y) = area.get_base_pixel();
    let style = (FONT, 12).into_font().color(&BLACK).pos(Pos::new(HPos::Center, VPos::Top));
    area.draw(&Text::new("0", (x_pixel - base_x, y_pixels.end - base_y + 6), style)).map_err(plot_error)
}

/// One panel of a [`CurveChart`]: curves sharing a log-scale `y` axis.
#[derive(Clone, Debug, PartialEq)]
pub struct CurvePanel {
    /// The `y` axis' description.
    pub axis: String,
    /// The curves; the `i`-th series of every panel has the same colour.
    pub series: Vec<Series>,
}

/// Panels of log-scale curves over a common `x` axis, stacked, each with a
/// fraction (0 to 1) drawn dashed against a second axis on the right.
#[derive(Clone, Debug, PartialEq)]
pub struct CurveChart {
    /// The chart's title.
    pub title: String,
    /// The `x` axis' description.
    pub x_axis: String,
    /// The `x` range shown.
    pub x_range: (f64, f64),
    /// The panels, top to bottom.
    pub panels: Vec<CurvePanel>,
    /// The fraction drawn in every panel, and the second axis' description.
    pub fraction: Option<(String, Series)>,
    /// A vertical line at this `x`, with its label.
    pub marker: Option<(f64, String)>,
}

/// Draws a [`CurveChart`]. Values below the bottom of a log axis (zeros) are
/// drawn on the axis.
pub fn curve_chart(chart: &CurveChart) -> anyhow::Result<String> {
    let (width, panel_height) = (900u32, 400u32);
    let height = 40 + panel_height * chart.panels.len().max(1) as u32;
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, (width, height)).into_drawing_area();
        root.fill(&WHITE).map_err(plot_error)?;
        let root = root.titled(&chart.title, (FONT, 18)).map_err(plot_error)?;
        let areas = root.split_evenly((chart.panels.len().max(1), 1));
        for (panel, area) in chart.panels.iter().zip(&areas) {
            curve_panel(area, chart, panel)?;
        }
        root.present().map_err(plot_error)?;
    }
    Ok(svg)
}

fn curve_panel(
    area: &DrawingArea<SVGBackend<'_>, Shift>,
    chart: &CurveChart,
    panel: &CurvePanel,
) -> anyhow::Result<()> {
    let (x0, x1) = chart.x_range;
    let values = panel.series.iter().flat_map(|s| s.points.iter().map(|&(_, y)| y));
    let axis = LogAxis::new(values, 0.0);
    let Range { start: lo, end: hi } = axis.range();
    let mut context = ChartBuilder::on(area)
        .margin(10)
        .x_label_area_size(40)
        .y_label_area_size(60)
        .right_y_label_area_size(if chart.fraction.is_some() { 60 } else { 0 })
        .build_cartesian_2d(x0..x1, axis.range().log_scale())
        .map_err(plot_error)?
        .set_secondary_coord(x0..x1, 0.0..1.0);
    context
        .configure_mesh()
        .x_desc(&chart.x_axis)
        .y_desc(&panel.axis)
        .y_label_formatter(&|v| compact(*v))
        .x_label_formatter(&|v| format!("{v:.2}"))
        .label_style((FONT, 12))
        .axis_desc_style((FONT, 13))
        .light_line_style(BLACK.mix(0.04))
        .bold_line_style(BLACK.mix(0.15))
        .draw()
        .map_err(plot_error)?;
    if let Some((axis, fraction)) = &chart.fraction {
        context
            .configure_secondary_axes()
            .y_desc(axis)
            .y_label_formatter(&|v| format!("{v:.1}"))
            .label_style((FONT, 12))
            .axis_desc_style((FONT, 13))
            .draw()
            .map_err(plot_error)?;
        context
            .draw_secondary_series(DashedLineSeries::new(fraction.points.iter().copied(), 6, 4, GREY.stroke_width(2)))
            .map_err(plot_error)?
            .label(fraction.name.clone())
            .legend(|(x, y)| DashedPathElement::new(vec![(x, y), (x + 20, y)], 5, 3, GREY.stroke_width(2)));
    }
    if let Some((x, label)) = &chart.marker {
        let style = BLACK.mix(0.6).stroke_width(1);
        context.draw_series(std::iter::once(PathElement::new(vec![(*x, lo), (*x, hi)], style))).map_err(plot_error)?;
        let text_style = (FONT, 12).into_font().color(&BLACK.mix(0.8)).pos(Pos::new(HPos::Left, VPos::Top));
        context
            .draw_series(std::iter::once(Text::new(format!(" {label}"), (*x, hi), text_style)))
            .map_err(plot_error)?;
    }
    for (i, series) in panel.series.iter().enumerate() {
        let colour = colour(i);
        let points: Vec<(f64, f64)> = series.points.iter().map(|&(x, y)| (x, axis.place(y))).collect();
        let style = colour.stroke_width(2);
        let drawn = if series.dashed {
            context.draw_series(DashedLineSeries::new(points.iter().copied(), 8, 4, style))
        } else {
            context.draw_series(LineSeries::new(points.iter().copied(), style))
        };
        let dashed = series.dashed;
        drawn.map_err(plot_error)?.label(series.name.clone()).legend(move |(x, y)| {
            // A solid line is one dash as long as the sample.
            let (dash, gap) = if dashed { (6, 3) } else { (20, 1) };
            DashedPathElement::new(vec![(x, y), (x + 20, y)], dash, gap, style)
        });
        let exact = points.iter().enumerate().filter(|&(k, _)| !series.is_lower_bound(k));
        context.draw_series(exact.map(|(_, &point)| Circle::new(point, 3, colour.filled()))).map_err(plot_error)?;
        let bounds = points.iter().enumerate().filter(|&(k, _)| series.is_lower_bound(k));
        context
            .draw_series(bounds.map(|(_, &point)| TriangleMarker::new(point, 6, colour.stroke_width(2))))
            .map_err(plot_error)?;
    }
    if let Some(zero) = axis.zero {
        label_zero_row(area, &context, zero)?;
    }
    if panel.series.iter().any(|s| s.lower_bounds.iter().any(|&b| b)) {
        let (x_pixels, y_pixels) = context.plotting_area().get_pixel_range();
        let (base_x, base_y) = area.get_base_pixel();
        let style = (FONT, 12).into_font().color(&BLACK.mix(0.8)).pos(Pos::new(HPos::Left, VPos::Bottom));
        let note = "\u{25B3} a lower bound: a limit stopped some of its runs";
        area.draw(&Text::new(note, (x_pixels.start - base_x + 6, y_pixels.end - base_y - 4), style))
            .map_err(plot_error)?;
    }
    draw_legend(&mut context)
}

/// The legend of a chart's series, in its upper right corner.
fn draw_legend<'a, X: Ranged, Y: Ranged>(
    context: &mut ChartContext<'a, SVGBackend<'a>, Cartesian2d<X, Y>>,
) -> anyhow::Result<()> {
    context
        .configure_series_labels()
        .position(SeriesLabelPosition::UpperRight)
        .background_style(WHITE.mix(0.85))
        .border_style(BLACK.mix(0.3))
        .label_font((FONT, 12))
        .draw()
        .map_err(plot_error)
}

/// A log-scale range covering the positive values: from the power of ten at or
/// below the smallest to the power of ten above the largest, with `headroom`
/// more decades on top (room for the labels of bars).
fn log_bounds(values: impl Iterator<Item = f64>, headroom: f64) -> (f64, f64) {
    let (mut min, mut max) = (f64::INFINITY, 0.0f64);
    for v in values.filter(|v| v.is_finite() && *v > 0.0) {
        min = min.min(v);
        max = max.max(v);
    }
    if max <= 0.0 {
        return (1.0, 10.0);
    }
    let lo = 10f64.powf(min.log10().floor());
    let top = (max.log10() + headroom).ceil().max(lo.log10() + 1.0);
    (lo, 10f64.powf(top))
}

/// A short spelling of a number for axes and labels: `950`, `12.5k`, `3.4M`,
/// `0.25`.
pub fn compact(value: f64) -> String {
    let magnitude = value.abs();
    let (scaled, suffix) = match magnitude {
        m if m >= 1e9 => (value / 1e9, "G"),
        m if m >= 1e6 => (value / 1e6, "M"),
        m if m >= 1e3 => (value / 1e3, "k"),
        _ => (value, ""),
    };
    let text = if scaled.abs() >= 100.0 || scaled.fract() == 0.0 {
        format!("{scaled:.0}")
    } else if scaled.abs() >= 10.0 {
        format!("{scaled:.1}")
    } else if magnitude >= 0.01 || magnitude == 0.0 {
        format!("{scaled:.2}")
    } else {
        format!("{scaled:.1e}")
    };
    let text = if text.contains('.') && !text.contains('e') {
        text.trim_end_matches('0').trim_end_matches('.').to_string()
    } else {
        text
    };
    format!("{text}{suffix}")
}

fn plot_error<E: std::error::Error + Send + Sync>(err: E) -> anyhow::Error {
    anyhow!("cannot draw the chart: {err}")
}

/// Fails unless the directory `path` would be written in exists and `path`
/// is not a directory, so that a long run can refuse an output file it could
/// not write before it starts. `what` names the file in the message: "the
/// plot", "the records".
pub fn check_destination(what: &str, path: &Path) -> anyhow::Result<()> {
    let parent = match path.parent() {
        Some(parent) if !parent.as_os_str().is_empty() => parent,
        _ => Path::new("."),
    };
    if !parent.exists() {
        anyhow::bail!("cannot write {what} to {}: there is no directory {}", path.display(), parent.display());
    }
    if !parent.is_dir() {
        anyhow::bail!("cannot write {what} to {}: {} is not a directory", path.display(), parent.display());
    }
    if path.is_dir() {
        anyhow::bail!("cannot write {what} to {}: it is a directory", path.display());
    }
    Ok(())
}

/// Writes `svg` to `path`, saying which file could not be written.
pub fn write_svg(path: &Path, svg: &str) -> anyhow::Result<()> {
    std::fs::write(path, svg).with_context(|| format!("cannot write the plot to {}", path.display()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn compact_numbers() {
        let cases = [
            (0.0, "0"),
            (7.0, "7"),
            (950.0, "950"),
            (12_500.0, "12.5k"),
            (1_000.0, "1k"),
            (3_400_000.0, "3.4M"),
            (0.25, "0.25"),
            (0.001, "1.0e-3"),
            (100_000.0, "100k"),
        ];
        for (value, text) in cases {
            assert_eq!(compact(value), text, "{value}");
        }
    }

    #[test]
    fn log_bounds_cover_the_values() {
        assert_eq!(log_bounds([3.0, 4500.0].into_iter(), 0.0), (1.0, 10_000.0));
        assert_eq!(log_bounds([0.0, 0.02, 7.0].into_iter(), 0.0), (0.01, 10.0));
        assert_eq!(log_bounds([0.0].into_iter(), 0.0), (1.0, 10.0));
    }

    /// The texts of an SVG's `<text>` elements.
    fn texts(svg: &str) -> Vec<String> {
        svg.split("<text")
            .skip(1)
            .filter_map(|t| Some(t.split_once('>')?.1.split_once("</text>")?.0.trim().to_string()))
            .collect()
    }

    fn one_panel(points: Vec<(f64, f64)>, lower_bounds: Vec<bool>) -> CurveChart {
        CurveChart {
            title: "t".into(),
            x_axis: "p2".into(),
            x_range: (0.0, 1.0),
            panels: vec![CurvePanel {
                axis: "nodes".into(),
                series: vec![Series { name: "fc".into(), points, dashed: false, lower_bounds }],
            }],
            fraction: None,
            marker: None,
        }
    }

    /// The `y` pixel of each circle of an SVG.
    fn circle_ys(svg: &str) -> Vec<f64> {
        svg.split("<circle").skip(1).filter_map(|c| c.split("cy=\"").nth(1)?.split('"').next()?.parse().ok()).collect()
    }

    #[test]
    fn the_lowest_decade_of_a_log_axis_is_labelled() {
        // ln(0.01) / ln(10) is -1.9999999999999996 in floating point: an axis
        // starting exactly at 0.01 had its first gridline at 0.1.
        for (points, decades) in [
            (vec![(0.1, 3.0), (0.5, 4500.0)], &["1", "10", "100", "1k", "10k"][..]),
            (vec![(0.1, 0.02), (0.5, 7.0)], &["0.01", "0.1", "1", "10"][..]),
            (vec![(0.1, 0.0004), (0.5, 0.3)], &["1.0e-4", "1.0e-3", "0.01", "0.1", "1"][..]),
        ] {
            let svg = curve_chart(&one_panel(points, Vec::new())).unwrap();
            let labels = texts(&svg);
            for decade in decades {
                assert!(labels.iter().any(|l| l == decade), "{decade} is not labelled: {labels:?}");
            }
        }
        let labels = vec!["a".to_string()];
        let svg = bar_chart("t", &labels, &[BarPanel { title: "time".into(), axis: "ms".into(), values: vec![0.02] }])
            .unwrap();
        assert!(texts(&svg).iter().any(|l| l == "0.01"), "{:?}", texts(&svg));
    }

    #[test]
    fn zeros_lie_on_a_row_of_their_own_below_the_lowest_decade() {
        let svg = curve_chart(&one_panel(vec![(0.1, 1.0), (0.5, 100.0), (0.9, 0.0)], Vec::new())).unwrap();
        assert!(texts(&svg).iter().any(|l| l == "0"), "a '0' row: {:?}", texts(&svg));
        let ys = circle_ys(&svg);
        assert_eq!(ys.len(), 3, "{svg}");
        // y grows downwards: the zero is below the one, not on its gridline.
        assert!(ys[2] > ys[0] + 10.0, "{ys:?}");
        // Without a zero there is no such row.
        let svg = curve_chart(&one_panel(vec![(0.1, 1.0), (0.5, 100.0)], Vec::new())).unwrap();
        assert!(!texts(&svg).iter().any(|l| l == "0"), "{:?}", texts(&svg));
    }

    #[test]
    fn lower_bounds_are_hollow_triangles_with_a_note() {
        let points = vec![(0.1, 10.0), (0.5, 1e5), (0.9, 50.0)];
        let svg = curve_chart(&one_panel(points.clone(), vec![false, true, false])).unwrap();
        assert_eq!(circle_ys(&svg).len(), 2, "the lower bound is no plain point");
        assert!(svg.contains("<polygon") || svg.contains("<polyline"), "a triangle: {svg}");
        assert!(texts(&svg).iter().any(|t| t.contains("a lower bound")), "{:?}", texts(&svg));
        let svg = curve_chart(&one_panel(points, Vec::new())).unwrap();
        assert_eq!(circle_ys(&svg).len(), 3);
        assert!(!texts(&svg).iter().any(|t| t.contains("a lower bound")));
    }

    #[test]
    fn charts_are_svg_with_their_labels() {
        let labels = vec!["bt+input".to_string(), "mac/ac2001+domwdeg".to_string()];
        let panels = [
            BarPanel { title: "nodes".into(), axis: "nodes".into(), values: vec![12_000.0, 15.0] },
            BarPanel { title: "time".into(), axis: "ms".into(), values: vec![3.5, 0.0] },
        ];
        let svg = bar_chart("a comparison", &labels, &panels).unwrap();
        assert!(svg.starts_with("<svg") && svg.trim_end().ends_with("</svg>"));
        for text in ["a comparison", "bt+input", "mac/ac2001+domwdeg", "12k", "3.5"] {
            assert!(svg.contains(text), "{text} missing");
        }
        let chart = CurveChart {
            title: "a sweep".into(),
            x_axis: "p2".into(),
            x_range: (0.0, 1.0),
            panels: vec![CurvePanel {
                axis: "checks".into(),
                series: vec![Series {
                    name: "fc".into(),
                    points: vec![(0.1, 10.0), (0.5, 1e5), (0.9, 0.0)],
                    dashed: true,
                    lower_bounds: Vec::new(),
                }],
            }],
            fraction: Some(("satisfiable".into(), Series::new("sat", vec![(0.1, 1.0), (0.9, 0.0)]))),
            marker: Some((0.38, "predicted".into())),
        };
        let svg = curve_chart(&chart).unwrap();
        for text in ["a sweep", "fc", "sat", "predicted", "satisfiable"] {
            assert!(svg.contains(text), "{text} missing");
        }
    }
}
