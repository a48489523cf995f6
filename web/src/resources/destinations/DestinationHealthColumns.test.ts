import { flushPromises, mount } from '@vue/test-utils'
import { ElTable, ElTableColumn } from 'element-plus'
import { createPinia } from 'pinia'
import { describe, expect, it } from 'vitest'
import { defineComponent } from 'vue'
import { createAppI18n } from '../../app/i18n'
import DestinationHealthColumns from './DestinationHealthColumns.vue'

// A destination table: the health columns stand where they are written, between the others.
const Table = defineComponent({
  components: { DestinationHealthColumns },
  setup: () => ({ rows: [{ id: 'wh_1', name: 'Receiver', active: true, disabledAt: null, consecutiveFailures: 3 }] }),
  template: `
    <el-table :data="rows" row-key="id">
      <el-table-column label="Name" prop="name" />
      <DestinationHealthColumns />
      <el-table-column label="Actions"><template #default>…</template></el-table-column>
    </el-table>`,
})

describe('DestinationHealthColumns', () => {
  it('adds the status and failures columns in place', async () => {
    const wrapper = mount(Table, { attachTo: document.body, global: { plugins: [createPinia(), createAppI18n('en')], components: { ElTable, ElTableColumn } } })
    await flushPromises()
    const headers = wrapper.findAll('th .cell').map((cell) => cell.text())
    expect(headers).toEqual(['Name', 'Status', 'Failures', 'Actions'])
    const cells = wrapper.findAll('tbody td .cell').map((cell) => cell.text())
    expect(cells[0]).toBe('Receiver')
    expect(cells[2]).toContain('3')
    wrapper.unmount()
  })
})
