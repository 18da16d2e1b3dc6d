# Renders Blender's default scene (Cycles, 8 samples, 96x54) as an OpenEXR MultiLayer file with the
# Combined, Depth, Normal and Diffuse Colour passes, half float, ZIP: how multilayer.0001.exr was made.
#   blender -b -P render-multilayer.py -- OUTPUT_PREFIX
import sys

import bpy

prefix = sys.argv[sys.argv.index("--") + 1] if "--" in sys.argv else "/tmp/multilayer."
scene = bpy.context.scene
scene.render.engine = "CYCLES"
scene.cycles.samples = 8
scene.cycles.use_denoising = False
scene.cycles.device = "CPU"
scene.render.resolution_x = 96
scene.render.resolution_y = 54
scene.render.resolution_percentage = 100
layer = scene.view_layers[0]
layer.use_pass_z = True
layer.use_pass_normal = True
layer.use_pass_diffuse_color = True
layer.cycles.use_denoising = False
scene.render.image_settings.file_format = "OPEN_EXR_MULTILAYER"
scene.render.image_settings.color_depth = "16"
scene.render.image_settings.exr_codec = "ZIP"
scene.frame_start = 1
scene.frame_end = 1
scene.render.filepath = prefix
bpy.ops.render.render(animation=True)
