//! Where a pane goes in the render target: [`Viewport`] and [`PlacedView`].

use crate::view::PaneView;

/// A rectangle of the render target, in physical pixels.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Viewport {
    /// Left edge.
    pub x: f32,
    /// Top edge.
    pub y: f32,
    /// Width.
    pub width: f32,
    /// Height.
    pub height: f32,
}

impl Viewport {
    /// The whole of a `width` × `height` target.
    pub fn full(width: u32, height: u32) -> Self {
        Self {
            x: 0.0,
            y: 0.0,
            width: width as f32,
            height: height as f32,
        }
    }

    /// Width over height; `None` for an empty or non-finite rectangle.
    pub fn aspect(&self) -> Option<f32> {
        let aspect = self.width / self.height;
        (self.width >= 1.0 && self.height >= 1.0 && aspect.is_finite()).then_some(aspect)
    }

    /// This rectangle cut to a `width` × `height` target; `None` when nothing is left.
    pub(super) fn clamped(&self, width: u32, height: u32) -> Option<Self> {
        let x0 = self.x.max(0.0);
        let y0 = self.y.max(0.0);
        let x1 = (self.x + self.width).min(width as f32);
        let y1 = (self.y + self.height).min(height as f32);
        (x1 - x0 >= 1.0 && y1 - y0 >= 1.0).then_some(Self {
            x: x0,
            y: y0,
            width: x1 - x0,
            height: y1 - y0,
        })
    }

    /// The whole pixels this rectangle covers, as a scissor rectangle.
    pub fn scissor(&self) -> (u32, u32, u32, u32) {
        let x0 = self.x.max(0.0).floor() as u32;
        let y0 = self.y.max(0.0).floor() as u32;
        let x1 = (self.x + self.width).max(0.0).ceil() as u32;
        let y1 = (self.y + self.height).max(0.0).ceil() as u32;
        (x0, y0, x1.saturating_sub(x0), y1.saturating_sub(y0))
    }
}

/// A pane's view placed in the target: where it goes and what it shows.
#[derive(Clone, Copy, Debug)]
pub struct PlacedView<'a> {
    /// Rectangle of the target the pane fills.
    pub viewport: Viewport,
    /// The scene to draw.
    pub view: PaneView<'a>,
}
