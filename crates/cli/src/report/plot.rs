//! SVG charts drawn with `plotters` (its SVG backend only): horizontal bar
//! charts on a log scale, for comparisons, and log-scale cost curves with a
//! fraction on a second axis, for sweeps.
//!
//! Text is written as SVG `<text>` elements, so no font is needed to make the
//! file: `plotters` estimates text sizes itself when it is built without its
//! `ttf` feature, and the viewer renders the text with its own sans-serif font.

use std::path::Path;

use anyhow::{Context as _, anyhow};
use plotters::coord::Shift;
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
    let (lo, hi) = log_bounds(panel.values.iter().copied(), 0.8);
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
    let (lo, hi) = log_bounds(values, 0.0);
    let mut context = ChartBuilder::on(area)
        .margin(10)
        .x_label_area_size(40)
        .y_label_area_size(60)
        .right_y_label_area_size(if chart.fraction.is_some() { 60 } else { 0 })
        .build_cartesian_2d(x0..x1, (lo..hi).log_scale())
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
        let points: Vec<(f64, f64)> = series.points.iter().map(|&(x, y)| (x, y.max(lo))).collect();
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
        context.draw_series(points.iter().map(|&point| Circle::new(point, 3, colour.filled()))).map_err(plot_error)?;
    }
    context
        .configure_series_labels()
        .position(SeriesLabelPosition::UpperRight)
        .background_style(WHITE.mix(0.85))
        .border_style(BLACK.mix(0.3))
        .label_font((FONT, 12))
        .draw()
        .map_err(plot_error)?;
    Ok(())
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

/// Fails unless the directory `path` would be written in exists, so that a
/// long run can refuse a plot it could not write before it starts.
pub fn check_destination(path: &Path) -> anyhow::Result<()> {
    let parent = match path.parent() {
        Some(parent) if !parent.as_os_str().is_empty() => parent,
        _ => Path::new("."),
    };
    if !parent.is_dir() {
        anyhow::bail!("cannot write the plot to {}: {} is not a directory", path.display(), parent.display());
    }
    if path.is_dir() {
        anyhow::bail!("cannot write the plot to {}: it is a directory", path.display());
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
                }],
            }],
            fraction: Some((
                "satisfiable".into(),
                Series { name: "sat".into(), points: vec![(0.1, 1.0), (0.9, 0.0)], dashed: true },
            )),
            marker: Some((0.38, "predicted".into())),
        };
        let svg = curve_chart(&chart).unwrap();
        for text in ["a sweep", "fc", "sat", "predicted", "satisfiable"] {
            assert!(svg.contains(text), "{text} missing");
        }
    }
}
