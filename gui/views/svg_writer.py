"""SVG 1.1 that every viewer draws alike — librsvg (GNOME, Inkscape's import), browsers, Qt.

``svg_picture`` runs a painting function on a paint device of our own and writes what it draws.
Qt's QSvgGenerator (6.11) is not used, because what it writes is drawn in full by Qt only:

- a clip outlives ``QPainter.restore()`` back to the clip around it (``QGraphicsView.render``
  clips to the view, so there always is one), so whatever a scene draws after a clipped item
  lands inside that item's clip: the pie's slices and legend were inside the title's 944 × 22
  rectangle, and librsvg drew nothing but the title; the bar chart's axes and grid were inside
  the title's clip too (QSvgRenderer draws them anyway);
- cosmetic pens (pyqtgraph's, one device pixel whatever the scale) are written as
  ``vector-effect="non-scaling-stroke"`` on geometry in data units — SVG Tiny 1.2 and SVG 2, not
  SVG 1.1 — and a dash pattern is then counted in those data units (the memory chart's dashed
  capacity line).

Here every clip is the painter's clip at the moment of drawing (``QPainter.clipPath``), given
on the group of what it clips, and geometry drawn with a cosmetic pen is written in page
coordinates, so a stroke and its dashes are in page pixels with no vector-effect. Geometry with
a pen that scales keeps its own coordinates under a ``transform``, as SVG scales a stroke the
way Qt does. Text is ``<text>`` with the font Qt resolved (selectable, searchable), images are
embedded PNGs.
"""

from __future__ import annotations

import base64
import math
from collections.abc import Callable, Sequence
from html import escape

from PySide6.QtCore import QBuffer, QByteArray, QIODevice, QPointF, QRectF, QSize, QSizeF, Qt
from PySide6.QtGui import (
    QBrush,
    QColor,
    QFontInfo,
    QImage,
    QPaintDevice,
    QPaintEngine,
    QPaintEngineState,
    QPainter,
    QPainterPath,
    QPen,
    QPixmap,
    QTextItem,
    QTransform,
)

__all__ = ["svg_picture"]

_Feature = QPaintEngine.PaintEngineFeature
# What QSvgGenerator's engine claims: anything else QPainter would rasterize before handing it on.
_FEATURES = (
    _Feature.AllFeatures
    & ~_Feature.PatternBrush
    & ~_Feature.PerspectiveTransform
    & ~_Feature.ConicalGradientFill
    & ~_Feature.PorterDuff
)
_Dirty = QPaintEngine.DirtyFlag
_CLIP_CHANGES = _Dirty.DirtyClipPath | _Dirty.DirtyClipRegion | _Dirty.DirtyClipEnabled
_CAPS = {Qt.PenCapStyle.FlatCap: "butt", Qt.PenCapStyle.SquareCap: "square", Qt.PenCapStyle.RoundCap: "round"}
_JOINS = {Qt.PenJoinStyle.BevelJoin: "bevel", Qt.PenJoinStyle.RoundJoin: "round"}  # else miter


def svg_picture(
    paint: Callable[[QPainter], None], size: QSize, title: str, description: str = "", dpi: int = 96
) -> bytes:
    """The SVG of what ``paint`` draws with the painter it is handed, on a page of ``size`` pixels
    (a font in points at ``dpi``)."""
    device = _Page(size, dpi)
    painter = QPainter(device)
    paint(painter)
    if painter.isActive():
        painter.end()
    return device.engine.document(size, title, description).encode()


def _num(value: float) -> str:
    # Seven significant digits, not a fixed number of decimals: a path drawn with a pen that scales
    # is written in its own units, which for a plot's data can be 1e-8 or 1e11 page pixels.
    text = format(value, ".7g")
    return "0" if text == "-0" else text


def _matrix(t: QTransform) -> str:
    return "matrix({})".format(
        " ".join(_num(v) for v in (t.m11(), t.m12(), t.m21(), t.m22(), t.dx(), t.dy()))
    )


def _path_data(path: QPainterPath) -> str:
    parts: list[str] = []
    i, count = 0, path.elementCount()
    while i < count:
        element = path.elementAt(i)
        if element.isMoveTo():
            parts.append(f"M{_num(element.x)} {_num(element.y)}")
        elif element.isLineTo():
            parts.append(f"L{_num(element.x)} {_num(element.y)}")
        else:  # a cubic: this element and the next two (CurveToData)
            c2, end = path.elementAt(i + 1), path.elementAt(i + 2)
            points = (element.x, element.y, c2.x, c2.y, end.x, end.y)
            parts.append("C" + " ".join(_num(v) for v in points))
            i += 2
        i += 1
    return "".join(parts)


def _paint(kind: str, color: QColor, opacity: float) -> str:
    alpha = color.alphaF() * opacity
    text = f'{kind}="{color.name(QColor.NameFormat.HexRgb)}"'
    return text + (f' {kind}-opacity="{_num(alpha)}"' if alpha < 1 else "")


def _fill(brush: QBrush, rule: Qt.FillRule, opacity: float) -> str:
    if brush.style() == Qt.BrushStyle.NoBrush:
        return 'fill="none"'
    gradient = brush.gradient()
    # Gradients and patterns (no chart draws one) are filled with their first colour.
    color = gradient.stops()[0][1] if gradient is not None and gradient.stops() else brush.color()
    evenodd = ' fill-rule="evenodd"' if rule == Qt.FillRule.OddEvenFill else ""
    return _paint("fill", color, opacity) + evenodd


def _stroke(pen: QPen, opacity: float) -> str:
    """A pen as SVG stroke attributes, in the units of the coordinates it strokes."""
    if pen.style() == Qt.PenStyle.NoPen or pen.brush().style() == Qt.BrushStyle.NoBrush:
        return 'stroke="none"'
    width = pen.widthF() or 1.0
    attributes = [_paint("stroke", pen.color(), opacity), f'stroke-width="{_num(width)}"']
    attributes.append(f'stroke-linecap="{_CAPS.get(pen.capStyle(), "square")}"')
    join = _JOINS.get(pen.joinStyle())
    attributes.append(
        f'stroke-linejoin="{join}"' if join else f'stroke-miterlimit="{_num(pen.miterLimit())}"'
    )
    if pen.style() != Qt.PenStyle.SolidLine:
        # Qt counts a dash pattern in pen widths (a width-0 pen's is 1); SVG in lengths.
        dashes = [max(d, 1e-3) * width for d in pen.dashPattern()]
        attributes.append(f'stroke-dasharray="{",".join(_num(d) for d in dashes)}"')
        if pen.dashOffset():
            attributes.append(f'stroke-dashoffset="{_num(pen.dashOffset() * width)}"')
    return " ".join(attributes)


def _blocks(image: QImage, drawn: QSizeF) -> QImage:
    """``image`` drawn larger unsmoothed, as Qt draws it without SmoothPixmapTransform: each pixel
    a block (the heatmap's cells). Viewers smooth an enlarged image (librsvg 2.54 whatever
    ``image-rendering`` says), so the blocks are made here, at twice the page's pixels."""
    across = max(1, math.ceil(2 * drawn.width() / max(1, image.width())))
    down = max(1, math.ceil(2 * drawn.height() / max(1, image.height())))
    if across == down == 1:
        return image
    return image.scaled(
        image.width() * across, image.height() * down, mode=Qt.TransformationMode.FastTransformation
    )


def _png_data(image: QImage) -> str:
    data = QByteArray()
    buffer = QBuffer(data)
    buffer.open(QIODevice.OpenModeFlag.WriteOnly)
    image.save(buffer, "PNG")
    buffer.close()
    return base64.b64encode(bytes(data.data())).decode("ascii")


class _Engine(QPaintEngine):
    """Writes each primitive QPainter hands it as an SVG element, grouped by the clip it has."""

    def __init__(self) -> None:
        super().__init__(_FEATURES)
        self.body: list[str] = []
        self.clips: dict[str, str] = {}  # a clip's path data → its id
        self._clip: str | None = None  # id of the open group's clip ('' none); None: no group open
        self._clip_shape: QPainterPath | None = None  # the painter's clip in page coordinates
        self._clip_on = True
        self._painter_clip: str | None = None  # id of the painter's clip; None: to be found

    # --- QPaintEngine ---------------------------------------------------------------------------

    def begin(self, device: QPaintDevice) -> bool:
        return True

    def end(self) -> bool:
        self._close_group()
        return True

    def type(self) -> QPaintEngine.Type:
        return QPaintEngine.Type.User

    def updateState(self, state: QPaintEngineState) -> None:
        # Followed here in page coordinates: QPainter.clipPath() maps the clip back into the
        # painter's coordinates through whole numbers, so a plot's clip in data units came out
        # 14 px wide. QPainter.restore() replays a saved clip as NoClip and then each clip.
        flags = state.state()
        if not flags & _CLIP_CHANGES:
            return
        self._painter_clip = None
        if flags & _Dirty.DirtyClipEnabled:
            self._clip_on = state.isClipEnabled()
        if not flags & (_Dirty.DirtyClipPath | _Dirty.DirtyClipRegion):
            return
        operation = state.clipOperation()
        if operation == Qt.ClipOperation.NoClip:
            self._clip_shape = None
            return
        shape = state.clipPath() if flags & _Dirty.DirtyClipPath else QPainterPath()
        if not flags & _Dirty.DirtyClipPath:
            shape.addRegion(state.clipRegion())
        shape = state.transform().map(shape)
        if operation == Qt.ClipOperation.IntersectClip and self._clip_shape is not None:
            shape = self._clip_shape.intersected(shape)
        self._clip_shape = shape

    def drawPath(self, path: QPainterPath) -> None:
        painter = self.painter()
        self._shape(path, painter.pen(), painter.brush(), path.fillRule())

    def drawPolygon(self, points: Sequence[QPointF], mode: QPaintEngine.PolygonDrawMode) -> None:
        if not points:
            return
        path = QPainterPath(points[0])
        for point in points[1:]:
            path.lineTo(point)
        painter = self.painter()
        if mode == QPaintEngine.PolygonDrawMode.PolylineMode:
            self._shape(path, painter.pen(), QBrush(), Qt.FillRule.OddEvenFill)
            return
        path.closeSubpath()
        rule = (
            Qt.FillRule.WindingFill
            if mode == QPaintEngine.PolygonDrawMode.WindingMode
            else Qt.FillRule.OddEvenFill
        )
        self._shape(path, painter.pen(), painter.brush(), rule)

    def drawPixmap(self, r: QRectF, pm: QPixmap, sr: QRectF) -> None:
        self.drawImage(r, pm.toImage(), sr)

    def drawImage(self, r: QRectF, pm: QImage, sr: QRectF, flags: object = None) -> None:
        painter = self.painter()
        transform = painter.combinedTransform()
        image = pm if QRectF(pm.rect()) == sr else pm.copy(sr.toAlignedRect())
        if not painter.testRenderHint(QPainter.RenderHint.SmoothPixmapTransform):
            image = _blocks(image, transform.mapRect(r).size())
        self._add(
            f'<image x="{_num(r.x())}" y="{_num(r.y())}" width="{_num(r.width())}" '
            f'height="{_num(r.height())}" preserveAspectRatio="none"{self._opacity_attribute(painter)} '
            f'transform="{_matrix(transform)}" xlink:href="data:image/png;base64,{_png_data(image)}"/>'
        )

    def drawTextItem(self, p: QPointF, textItem: QTextItem) -> None:
        text = textItem.text()
        if not text.strip():
            return
        painter = self.painter()
        font = textItem.font()
        size = font.pixelSize() if font.pixelSize() > 0 else font.pointSizeF() * self._dpi() / 72
        family = QFontInfo(font).family()
        style = "italic" if font.italic() else "normal"
        self._add(
            f'<text x="{_num(p.x())}" y="{_num(p.y())}" transform="{_matrix(painter.combinedTransform())}" '
            f'font-family="\'{escape(family)}\', sans-serif" font-size="{_num(size)}" '
            f'font-weight="{int(font.weight())}" font-style="{style}" '
            f'{_paint("fill", painter.pen().color(), painter.opacity())} stroke="none" '
            f'xml:space="preserve">{escape(text, quote=False)}</text>'
        )

    # --- writing --------------------------------------------------------------------------------

    def _dpi(self) -> int:
        device = self.paintDevice()
        return device.logicalDpiY() if device is not None else 96

    @staticmethod
    def _opacity_attribute(painter: QPainter) -> str:
        return f' opacity="{_num(painter.opacity())}"' if painter.opacity() < 1 else ""

    def _shape(self, path: QPainterPath, pen: QPen, brush: QBrush, rule: Qt.FillRule) -> None:
        painter = self.painter()
        transform, opacity = painter.combinedTransform(), painter.opacity()
        fill = _fill(brush, rule, opacity)
        if pen.isCosmetic() or pen.style() == Qt.PenStyle.NoPen:
            # In page coordinates: a cosmetic pen's width and dashes are page pixels.
            data, place = _path_data(transform.map(path)), ""
        else:  # in its own, scaled as Qt scales the pen
            data, place = _path_data(path), f' transform="{_matrix(transform)}"'
        if data:
            self._add(f'<path d="{data}"{place} {fill} {_stroke(pen, opacity)}/>')

    def _add(self, element: str) -> None:
        clip = self._current_clip()
        if clip != self._clip:
            self._close_group()
            self.body.append(f'<g clip-path="url(#{clip})">' if clip else "<g>")
            self._clip = clip or ""
        self.body.append(element)

    def _close_group(self) -> None:
        if self._clip is not None:
            self.body.append("</g>")
            self._clip = None

    def _current_clip(self) -> str:
        """The id of the painter's clip now ('' when it has none), defined on first use."""
        if self._painter_clip is None:
            self._painter_clip = self._define_clip()
        return self._painter_clip

    def _define_clip(self) -> str:
        clip = self._clip_shape
        if clip is None or not self._clip_on:
            return ""
        rule = "evenodd" if clip.fillRule() == Qt.FillRule.OddEvenFill else "nonzero"
        key = f'<path d="{_path_data(clip)}" clip-rule="{rule}"/>'
        return self.clips.setdefault(key, f"clip{len(self.clips) + 1}")

    def document(self, size: QSize, title: str, description: str) -> str:
        width, height = size.width(), size.height()
        clips = "".join(f'<clipPath id="{name}">{shape}</clipPath>\n' for shape, name in self.clips.items())
        return (
            '<?xml version="1.0" encoding="UTF-8" standalone="no"?>\n'
            f'<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" '
            f'version="1.1" width="{width}" height="{height}" viewBox="0 0 {width} {height}">\n'
            f"<title>{escape(title, quote=False)}</title>\n<desc>{escape(description, quote=False)}</desc>\n"
            f"<defs>\n{clips}</defs>\n" + "\n".join(self.body) + "\n</svg>\n"
        )


class _Page(QPaintDevice):
    """A page of ``size`` pixels at ``dpi`` whose painting ``_Engine`` writes as SVG."""

    def __init__(self, size: QSize, dpi: int) -> None:
        super().__init__()
        self.size, self.dpi = size, dpi
        self.engine = _Engine()

    def paintEngine(self) -> QPaintEngine:
        return self.engine

    def metric(self, metric: QPaintDevice.PaintDeviceMetric) -> int:
        m = QPaintDevice.PaintDeviceMetric
        values = {
            m.PdmWidth: self.size.width(),
            m.PdmHeight: self.size.height(),
            m.PdmWidthMM: round(self.size.width() * 25.4 / self.dpi),
            m.PdmHeightMM: round(self.size.height() * 25.4 / self.dpi),
            m.PdmNumColors: 1 << 24,
            m.PdmDepth: 32,
            m.PdmDpiX: self.dpi,
            m.PdmDpiY: self.dpi,
            m.PdmPhysicalDpiX: self.dpi,
            m.PdmPhysicalDpiY: self.dpi,
            m.PdmDevicePixelRatio: 1,
            m.PdmDevicePixelRatioScaled: round(QPaintDevice.devicePixelRatioFScale()),
        }
        # The rest (the pixel ratio as a float, in two halves) QPaintDevice answers from the above.
        return values[metric] if metric in values else super().metric(metric)
