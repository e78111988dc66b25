// The ground grid: unlit lines that fade into the background with distance from its centre.
// Appended to common.wgsl.

struct GridOut {
    @builtin(position) clip_position: vec4<f32>,
    @location(0) color: vec3<f32>,
    // Distance from the grid's centre over the fade radius; per fragment, because the
    // lines' end points all lie at the faded rim.
    @location(1) relative_distance: vec2<f32>,
};

@vertex
fn vs_grid(vertex: VertexIn, instance: InstanceIn) -> GridOut {
    let world_position = world_from_object(instance) * vec4<f32>(vertex.position, 1.0);
    var out: GridOut;
    out.clip_position = camera.clip_from_world * world_position;
    out.color = instance.color.rgb;
    // params.x: radius at which the lines have fully faded, metres.
    out.relative_distance = vertex.position.xz / instance.params.x;
    return out;
}

@fragment
fn fs_grid(in: GridOut) -> @location(0) vec4<f32> {
    let fade = smoothstep(0.35, 1.0, length(in.relative_distance));
    return vec4<f32>(mix(in.color, camera.background.rgb, fade), 1.0);
}
